import Boardy
import Foundation

typealias SessionParameter = BlockTaskParameter<Bool, String>
typealias TokenRefreshParameter = BlockTaskParameter<String, String>

enum SessionBoardFactory {
    static func make(identifier: BoardID, executingType: ExecutingType = .latest) -> ActivatableBoard {
        BlockTaskBoard<Bool, String>(identifier: identifier, executingType: executingType, executor: { _, verified, completion in
            completion(.success(verified ? "token" : ""))
            return .none
        })
    }
}

enum TokenRefreshBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        TaskBoard<String, String>(identifier: identifier) { _, input, completion in
            completion(.success(input))
        }
    }
}

enum CaptchaBoardFactory {
    static func make(identifier: BoardID) -> ActivatableBoard {
        TaskBoard<Void, Bool>(identifier: identifier) { board, _, completion in
            completion(.success(true))
        }
    }
}

final class OTPBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = String
    typealias OutputType = Bool

    func activate(withGuaranteedInput input: String) {
        sendOutput(input.count == 6)
    }
}

final class RegisterBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Void
    typealias OutputType = Bool

    func activate(withGuaranteedInput input: Void) {
        // Already signed up: to the login screen, through the service map.
        motherboard.serviceMap.modAuthentication.ioLogin.activation.activate()
    }
}

final class AuthGateBoard: Board, GuaranteedBoard, GuaranteedOutputSendingBoard {
    typealias InputType = Any?
    typealias OutputType = Bool

    func activate(withGuaranteedInput input: Any?) {
        motherboard.ioLogin().activation.activate()
        motherboard.ioLogin().flow.addTarget(self) { target, output in
            target.sendOutput(output == .loggedIn)
            target.complete(output == .loggedIn)
        }
    }
}

final class LogoutBoard: Board, GuaranteedBoard, GuaranteedActionSendingBoard {
    typealias InputType = Void
    typealias FlowActionType = AppLogoutAction

    func activate(withGuaranteedInput input: Void) {
        broadcastAction(AppLogoutAction.done)
    }
}

public enum AppLogoutAction: BoardFlowAction {
    case done
}
