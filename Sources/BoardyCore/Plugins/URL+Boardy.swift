import Foundation

extension URL {
    /// Boardy's helpers for a deep link (`url.boardy.queryParameters`).
    public var boardy: BoardyURLExtensions { BoardyURLExtensions(url: self) }
}

/// A URL's query and path as URL opener plugins read them (Boardy's `BoardyURLExtensions`).
public struct BoardyURLExtensions {
    let url: URL

    /// The query's items by name, percent-decoded (the last of a repeated name wins).
    public var queryParameters: [String: String] {
        guard let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems else { return [:] }
        return items.reduce(into: [:]) { $0[$1.name] = $1.value?.removingPercentEncoding }
    }

    /// ``queryParameters`` as JSON, for a Decodable board input (empty when it cannot be encoded).
    public var queryData: Data {
        (try? JSONSerialization.data(withJSONObject: queryParameters, options: .prettyPrinted)) ?? Data()
    }

    /// The path's components without the separators.
    public var pathComponents: [String] {
        url.pathComponents.filter { $0 != "/" }
    }
}
