import BoardyTrace

/// Reading the descriptions Boardy prints (`String(describing:)` of its own models) back into
/// what they say. Only Boardy's own models are read apart; an app's values stay the text they
/// were printed as.
enum Descriptions {
    /// `CompleteAction(identifier: X, isDone: true)` (also as `Boardy.CompleteAction(…)`, or in
    /// `Optional(…)`): the board and the result.
    static func completeAction(_ s: String) -> (board: String, isDone: Bool)? {
        guard let body = call(s, named: "CompleteAction") else { return nil }
        guard let done = body.lastRange(of: ", isDone: "), body.hasPrefix("identifier: ") else { return nil }
        let id = body[body.index(body.startIndex, offsetBy: 12)..<done.lowerBound]
        switch body[done.upperBound...] {
        case "true": return (String(id), true)
        case "false": return (String(id), false)
        default: return nil
        }
    }

    /// `GatewayInputModel(identifier: X, option: …)` (also `Boardy.GatewayInputModel`, or in
    /// `Optional(…)`): the gated board and its option's description (nil for `nil`).
    static func gatewayInput(_ s: String) -> (board: String, option: String?)? {
        guard let body = call(s, named: "GatewayInputModel"), body.hasPrefix("identifier: ") else { return nil }
        guard let opt = body.range(of: ", option: ") else { return nil }
        let id = body[body.index(body.startIndex, offsetBy: 12)..<opt.lowerBound]
        let option = body[opt.upperBound...]
        if option == "nil" { return (String(id), nil) }
        // The option is printed as an `Any?`: `Optional("h1")`, `Optional(42)`.
        if let inner = unwrap(option, "Optional") { return (String(id), unquote(inner)) }
        return (String(id), String(option))
    }

    /// `[Gateway] with identifier X is installing by X.___GATEWAY___` or `… was installed by …`:
    /// the gated board, the proxy, and whether it was new.
    static func gatewayInstall(_ s: String) -> (board: String, proxy: String, installing: Bool)? {
        let lead = "[Gateway] with identifier "
        guard s.hasPrefix(lead) else { return nil }
        let rest = s.dropFirst(lead.count)
        for (word, installing) in [(" is installing by ", true), (" was installed by ", false)] {
            if let r = rest.lastRange(of: word) {
                return (String(rest[..<r.lowerBound]), String(rest[r.upperBound...]), installing)
            }
        }
        return nil
    }

    /// The arguments of `Name(…)` or `Module.Name(…)`, through any `Optional(…)` around it.
    static func call(_ s: String, named name: String) -> Substring? {
        var v = Substring(s)
        while let inner = unwrap(v, "Optional") { v = inner }
        if let dot = v.firstIndex(of: "("), v[..<dot].hasSuffix("." + name) { v = v[v.index(after: v[..<dot].lastIndex(of: ".")!)...] }
        return unwrap(v, name)
    }

    /// A value's description with the `Optional(…)` wrappers and string quotes Boardy's models
    /// add taken off: the gate of a barrier is handed `Optional(x)` where the board was handed
    /// `x`, so the two are compared this way.
    static func bare(_ s: String?) -> String? {
        guard let s else { return nil }
        var v = Substring(s)
        while let inner = unwrap(v, "Optional") { v = inner }
        // `()` (Void, what a `.void` barrier hands its gate) is no input at all.
        guard v != "()", v != "nil" else { return nil }
        return unqualified(unquote(v))
    }

    /// Without module and type qualifiers (`Shop.Cart.Item.book` → `book`): a value printed
    /// inside `Optional(…)` is its debug description, which qualifies what its plain
    /// description does not.
    static func unqualified(_ s: String) -> String {
        var out = ""
        var word = ""
        func isWordStart(_ c: Character) -> Bool { c == "_" || c.isLetter }
        func isWord(_ c: Character) -> Bool { c == "_" || c.isLetter || c.isNumber }
        var chars = Array(s)[...]
        while let c = chars.first {
            chars = chars.dropFirst()
            if isWord(c) && (!word.isEmpty || isWordStart(c)) {
                word.append(c)
                continue
            }
            if c == ".", !word.isEmpty, let next = chars.first, isWordStart(next) {
                word = ""
                continue
            }
            out += word
            word = ""
            out.append(c)
        }
        return out + word
    }

    /// What is inside `Name(…)` when `s` is exactly that.
    static func unwrap(_ s: Substring, _ name: String) -> Substring? {
        guard s.hasPrefix(name + "("), s.hasSuffix(")") else { return nil }
        return s.dropFirst(name.count + 1).dropLast()
    }

    /// `"text"` without its quotes and escapes (as `Optional("text")` prints a string, with
    /// `\"`, `\\`, `\n`, `\t`, `\r`, `\0`, `\u{…}`); anything else as is.
    static func unquote(_ s: Substring) -> String {
        guard s.count >= 2, s.first == "\"", s.last == "\"" else { return String(s) }
        var out = ""
        var it = s.dropFirst().dropLast().makeIterator()
        while let c = it.next() {
            guard c == "\\" else {
                out.append(c)
                continue
            }
            switch it.next() {
            case "n"?: out.append("\n")
            case "t"?: out.append("\t")
            case "r"?: out.append("\r")
            case "0"?: out.append("\0")
            case "u"?:
                var hex = ""
                if it.next() == "{" {
                    while let h = it.next(), h != "}" { hex.append(h) }
                }
                if let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) { out.unicodeScalars.append(scalar) }
            case let other?: out.append(other)
            case nil: out.append("\\")
            }
        }
        return out
    }

    private static let integerTypes: Set<String> = ["Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64"]
    private static let floatingTypes: Set<String> = ["Double", "Float", "CGFloat", "Float32", "Float64"]

    /// A printed value as JSON: a number for Swift's number types, a Boolean for `Bool`, the
    /// text otherwise (a `String`'s text is the string itself).
    static func json(type: String, value: String) -> JSONValue {
        if integerTypes.contains(type), let v = Int64(value) { return .int(v) }
        if floatingTypes.contains(type), let v = Double(value), v.isFinite { return .double(v) }
        if type == "Bool" {
            if value == "true" { return .bool(true) }
            if value == "false" { return .bool(false) }
        }
        return .string(value)
    }

    /// For a barrier id (`gate.___PRIVATE_BARRIER___`, with a key after it for `.unique` and
    /// `.unidentified` options): the gate and the barrier's name in a trace (the gate, or
    /// `gate:key`).
    static func barrier(_ id: String) -> (gate: String, barrier: String)? {
        guard let r = id.range(of: BoardID.privateBarrierSuffix) else { return nil }
        let gate = String(id[..<r.lowerBound])
        var key = id[r.upperBound...]
        if key.first == "." { key = key.dropFirst() }
        return (gate, key.isEmpty ? MotherboardPath.encode(gate) : MotherboardPath.encode(gate) + ":" + key)
    }

    /// The board a gateway proxy id (`X.___GATEWAY___`) stands in front of.
    static func gatewayDestination(_ id: String) -> String? {
        let suffix = BoardID.gatewaySuffix
        guard id.hasSuffix(suffix), id.count > suffix.count else { return nil }
        return String(id.dropLast(suffix.count))
    }

    /// `⚠️ [<board description>] [X] is already activated. …` (a busy TaskBoard or
    /// ResultTaskBoard): X.
    static func busyBoard(_ warning: String) -> String? {
        let tail = "] is already activated."
        guard let end = warning.lastRange(of: tail),
            let open = warning[..<end.lowerBound].lastRange(of: "] [")
        else { return nil }
        return String(warning[open.upperBound..<end.lowerBound])
    }

    /// `⚠️ [Type] ➤ id` (the first line of a warning about a board or motherboard): the type and id.
    static func warningSubject(_ warning: String) -> (type: String, id: String)? {
        let firstLine = warning.prefix { $0 != "\n" }
        guard firstLine.hasPrefix("⚠️ ["), let arrow = firstLine.range(of: "] ➤ ") else { return nil }
        let type = firstLine[firstLine.index(firstLine.startIndex, offsetBy: 3)..<arrow.lowerBound]
        guard !type.contains("[") else { return nil }
        return (String(type), String(firstLine[arrow.upperBound...]))
    }
}
