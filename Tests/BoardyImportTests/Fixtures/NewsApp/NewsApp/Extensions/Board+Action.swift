//
//  Board+Action.swift
//  NewsApp
//
//  Created by NewsApp on 1/29/24.
//

import Boardy
import Foundation

extension IdentifiableBoard {
    func sendAction(_ action: CloseAction) {
        sendFlowAction(action)
    }
}
