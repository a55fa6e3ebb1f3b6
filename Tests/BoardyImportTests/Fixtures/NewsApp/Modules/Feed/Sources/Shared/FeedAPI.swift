//
//  FeedAPI.swift
//  Feed
//
//  Created by NewsApp on 2/5/24.
//
//

import FeedIO
import Foundation

final class FeedAPI {
    static let shared = FeedAPI(baseURL: URL(string: "https://api.example.com/news/v2")!)

    private let baseURL: URL
    private let session: URLSession

    init(baseURL: URL, session: URLSession = .shared) {
        self.baseURL = baseURL
        self.session = session
    }

    func latest(page: Int, completion: @escaping (Result<[ArticleSummary], Error>) -> Void) {
        get("feed/pages/\(page)", completion: completion)
    }

    func article(id: String, completion: @escaping (Result<ArticleContent, Error>) -> Void) {
        get("articles/\(id)") { (result: Result<ArticleDTO, Error>) in
            completion(result.map { ArticleContent(articleID: $0.id, html: $0.body, commentCount: $0.commentCount) })
        }
    }

    func postComment(_ text: String, by author: String, on articleID: String, completion: @escaping (Result<Int, Error>) -> Void) {
        var request = URLRequest(url: baseURL.appendingPathComponent("articles/\(articleID)/comments"))
        request.httpMethod = "POST"
        request.httpBody = try? JSONEncoder().encode(["author": author, "text": text])
        session.dataTask(with: request) { data, _, error in
            if let error = error {
                completion(.failure(error))
                return
            }
            let count = data.flatMap { try? JSONDecoder().decode(CommentCountDTO.self, from: $0) }?.count ?? 0
            completion(.success(count))
        }.resume()
    }

    private func get<T: Decodable>(_ path: String, completion: @escaping (Result<T, Error>) -> Void) {
        session.dataTask(with: baseURL.appendingPathComponent(path)) { data, _, error in
            if let error = error {
                completion(.failure(error))
                return
            }
            do {
                completion(.success(try JSONDecoder().decode(T.self, from: data ?? Data())))
            } catch {
                completion(.failure(error))
            }
        }.resume()
    }
}

private struct ArticleDTO: Decodable {
    let id: String
    let body: String
    let commentCount: Int
}

private struct CommentCountDTO: Decodable {
    let count: Int
}
