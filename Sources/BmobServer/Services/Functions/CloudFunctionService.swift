package import BmobWire
import Foundation

/// Runs the server's Swift cloud functions for a caller: resolves who calls, hands the function its parameters
/// (as strings when the door asks, Bmob's rule for encrypted calls), and turns its outcome into an answer: its
/// value, its ``CloudFunctionError`` as that code, anything else as 310 with the cause in the log.
package struct CloudFunctionService: Sendable {
    package let functions: CloudFunctions
    /// Calls the apps' webhooks.
    package let webhooks: WebhookClient
    let callers: CallerResolver
    let logger: Logger

    package init(functions: CloudFunctions, webhooks: WebhookClient, callers: CallerResolver, logger: Logger) {
        self.functions = functions
        self.webhooks = webhooks
        self.callers = callers
        self.logger = logger
    }

    /// The most bytes of a function's name.
    static let maximumNameBytes = 128

    /// Runs the function `name`.
    ///
    /// - Throws: ``BmobAPIError`` 311 for a function the server does not have, the function's own code, 310 for
    ///   any other failure of the function.
    package func call(
        name: String, params: [String: JSONValue], paramsAsStrings: Bool, context: AppContext, runner: OperationRunner
    ) async throws -> JSONValue {
        guard name.utf8.count <= Self.maximumNameBytes else {
            throw BmobAPIError(.invalidCloudCodeName, "no cloud function named '\(name.prefix(Self.maximumNameBytes))'")
        }
        let caller = try await callers.caller(context)
        let params = paramsAsStrings ? params.mapValues(Self.stringified) : params
        guard let function = functions[name] else {
            guard let url = context.app.webhooks.functions[name] else {
                throw BmobAPIError(.invalidCloudCodeName, "no cloud function named '\(name)'")
            }
            let payload: JSONValue = [
                "function": .string(name), "params": .object(params),
                "user": caller.userId.map { ["objectId": .string($0)] } ?? .null, "master": .bool(caller == .master),
            ]
            let answer = try await webhooks.call(
                url, payload: payload, secret: context.app.webhooks.secret, what: "function \(name)")
            if case .value(_, let value) = answer { return value }
            return .null
        }
        let request = CloudFunctionRequest(
            name: name, params: params, userId: caller.userId,
            isMaster: caller == .master, applicationId: context.app.applicationId,
            requestId: context.trace?.requestId ?? "-", data: CloudData(runner: runner, context: context, acting: "function:\(name)"),
            logger: logger)
        let started = ContinuousClock.now
        do {
            let result = try await function(request)
            logger.info(
                "cloud function \(name) answered in \(Self.milliseconds(since: started)) ms",
                metadata: ["requestId": request.requestId])
            return result
        } catch {
            let elapsed = Self.milliseconds(since: started)
            if let refusal = error as? CloudFunctionError {
                logger.info(
                    "cloud function \(name) refused the call with \(refusal.code) in \(elapsed) ms",
                    metadata: ["requestId": request.requestId])
            }
            throw Self.failure(error, what: "the cloud function '\(name)'") { cause in
                logger.error(
                    "cloud function \(name) failed after \(elapsed) ms: \(cause)", metadata: ["requestId": request.requestId])
            }
        }
    }

    /// What the caller is told when a function or trigger (`what`) threw `error`: a ``CloudFunctionError``'s code and
    /// message, a ``BmobAPIError`` as it is, anything else 310 "<what> failed" with the cause only in the log.
    static func failure(_ error: any Error, what: String, log: (any Error) -> Void) -> BmobAPIError {
        switch error {
        case let refusal as CloudFunctionError:
            return BmobAPIError(BmobErrorCode(refusal.code), refusal.message)
        case let answer as BmobAPIError:
            return answer
        default:
            log(error)
            return BmobAPIError(.cloudCodeError, "\(what) failed")
        }
    }

    /// A parameter as Bmob hands it to a function on the encrypted path: strings as they are, anything else as its
    /// JSON text (`42` → `"42"`, `true` → `"true"`, `[1,2,3]` → `"[1,2,3]"`).
    static func stringified(_ value: JSONValue) -> JSONValue {
        if case .string = value { return value }
        return .string(value.jsonString)
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }
}
