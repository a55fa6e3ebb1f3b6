/// A gate for a whole motherboard or for one board (Boardy's gateway barrier): before a gated
/// board activates, the gate board runs, and the board activates only if the gate passes.
///
/// ```swift
/// mainboard.install(gatewayBarrier: .gate("pubAuth", resolveOn: { ($0 as? AuthOutput).map { $0 == .authenticated } }))
/// mainboard.install(gatewayBarrier: .exempt, for: "pubAuth")
/// mainboard.install(gatewayBarrier: .exempt, for: "pubWelcome")
/// ```
///
/// Each gated activation has its own run of the gate, which is activated with a
/// ``GatewayRequest`` (the destination and its original input). A run resolves on the first of:
/// the gate's completion, or an output `resolveOn` maps to true or false. One signal of a gate
/// resolves every open run of that gate, in request order; later signals are ignored.
public struct GatewayBarrier {
    enum Kind {
        case exempt
        case gate(BoardID, input: ((GatewayRequest) -> Any?)?, resolveOn: ((Any?) -> Bool?)?)
    }

    let kind: Kind

    /// A gate that passes at once (Boardy rule 11): install it for the boards that must stay
    /// reachable, such as the gate itself.
    public static var exempt: GatewayBarrier { GatewayBarrier(kind: .exempt) }

    /// A gate board; its completion resolves, and so does any output `resolveOn` maps to a
    /// verdict (nil: not a resolving output). The gate is activated with the
    /// ``GatewayRequest``, or with what `input` makes of it (for a gate with a typed input).
    public static func gate(
        _ board: BoardID, input: ((GatewayRequest) -> Any?)? = nil, resolveOn: ((Any?) -> Bool?)? = nil
    ) -> GatewayBarrier {
        GatewayBarrier(kind: .gate(board, input: input, resolveOn: resolveOn))
    }

    /// The gate board, or nil for ``exempt``.
    public var gateBoard: BoardID? {
        if case let .gate(board, _, _) = kind { return board }
        return nil
    }
}

/// What a gateway's gate board is activated with: the board waiting behind it and that board's
/// original input (Boardy rule 9).
public struct GatewayRequest: TraceValueConvertible {
    /// The gated board.
    public var destination: BoardID
    /// Its original input.
    public var input: Any?

    public var traceValue: JSONValue {
        var o: JSONObject = ["destination": .string(destination.rawValue)]
        if let input = TraceValue.json(input) { o["input"] = input }
        return .object(o)
    }
}
