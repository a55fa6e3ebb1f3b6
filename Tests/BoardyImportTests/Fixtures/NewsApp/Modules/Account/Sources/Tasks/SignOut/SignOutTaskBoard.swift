//
//  SignOutTaskBoard.swift
//  Account
//
//  Created by NewsApp on 2/9/24.
//
//

import AccountIO
import Boardy
import Foundation

enum SignOutTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        BlockTaskBoard<SignOutInput, SignOutOutput>(identifier: identifier, executingType: .only) { _, _, completion in
            AccountAPI.shared.signOut { result in
                if case .success = result {
                    AccountSession.shared.update(nil)
                }
                completion(result)
            }
            return .none
        }
    }
}
