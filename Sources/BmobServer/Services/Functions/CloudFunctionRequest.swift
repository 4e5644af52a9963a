public import BmobWire
import Foundation

/// One call of a cloud function: its name, its parameters, and who called.
public struct CloudFunctionRequest: Sendable {
    /// The function's name.
    public var name: String
    /// The parameters: the request's JSON members, each value a string when the call came through the encrypted
    /// door (as Bmob's servers do) or when the REST setting says so.
    public var params: [String: JSONValue]
    /// The caller's user id, when the request carried a valid session.
    public var userId: String?
    /// Whether the request carried the master key.
    public var isMaster: Bool
    /// The app the call is for.
    public var applicationId: String
    /// The request's id, as the server's log names it.
    public var requestId: String
    /// The app's data, as the caller sees it (``CloudData/asMaster`` for the master key's view).
    public var data: CloudData
    package var logger: Logger

    /// The parameters decoded as `T` (a `Decodable` struct whose properties name the parameters).
    ///
    /// - Throws: ``CloudFunctionError`` 107 naming what does not decode; a function that lets it escape answers the
    ///   client with it.
    public func params<T: Decodable>(as type: T.Type) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(JSONValue.object(params).jsonBytes))
        } catch {
            throw CloudFunctionError(code: 107, message: "the parameters do not fit \(T.self): \(error)")
        }
    }

    /// Writes `message` to the server's log, with the request's id and the function's name.
    public func log(_ message: String) {
        logger.info("cloud function \(name): \(message)", metadata: ["requestId": requestId])
    }
}
