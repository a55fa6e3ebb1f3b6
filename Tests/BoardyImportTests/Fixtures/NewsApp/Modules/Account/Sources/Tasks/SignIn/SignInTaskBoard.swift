//
//  SignInTaskBoard.swift
//  Account
//
//  Created by NewsApp on 2/8/24.
//
//

import AccountIO
import Boardy
import Foundation
import SiFUtilities

enum SignInTaskBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        TaskBoard<SignInInput, SignInOutput>(identifier: identifier) { _, input, completion in
            guard !input.email.isEmpty, !input.password.isEmpty else {
                completion(.failure(NSError.general(message: "Email and password must not be empty")))
                return
            }
            AccountAPI.shared.signIn(email: input.email, password: input.password, completion: completion)
        }
        processingHandler: { $0.showDefaultLoading($0.isProcessing) }
    }
}
