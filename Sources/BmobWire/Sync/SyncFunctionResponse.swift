/// The answer to a `Mutation` or an `Action` (`sync.md` §1.4, §1.6).
package struct SyncFunctionResponse: Sendable, Hashable {
    /// How the call ended.
    package enum Outcome: Sendable, Hashable {
        /// It returned `value`; a mutation's `ts` is its commit, which the client waits to see in a `Transition`.
        case success(value: JSONValue, ts: Int64?)
        /// It threw: the message, and an application error's payload if it had one. Nothing was written.
        case failure(message: String, errorData: JSONValue?)
    }

    /// The request it answers.
    package var requestId: Int64
    /// How the call ended.
    package var outcome: Outcome
    /// What the function logged.
    package var logLines: [String]

    /// A response.
    package init(requestId: Int64, outcome: Outcome, logLines: [String] = []) {
        self.requestId = requestId
        self.outcome = outcome
        self.logLines = logLines
    }

    /// The members after `type`: `requestId, success, result, ts?, errorData?, logLines`.
    var members: [String: JSONValue] {
        var members: [String: JSONValue] = ["requestId": .int(requestId), "logLines": .array(logLines.map(JSONValue.string))]
        switch outcome {
        case .success(let value, let ts):
            members["success"] = true
            members["result"] = value
            if let ts { members["ts"] = .int(ts) }
        case .failure(let message, let errorData):
            members["success"] = false
            members["result"] = .string(message)
            if let errorData { members["errorData"] = errorData }
        }
        return members
    }

    /// Reads the members of a `MutationResponse` or `ActionResponse`.
    init(json: JSONValue, limits: SyncLimits) throws(SyncProtocolError) {
        requestId = try SyncMembers.count("requestId", in: json)
        logLines = try SyncMembers.logLines(in: json, limit: limits.maximumItems)
        if try SyncMembers.bool("success", in: json) {
            outcome = .success(value: (json["result"] ?? .null).wholeNumbersAsIntegers, ts: try SyncMembers.optionalCount("ts", in: json))
        } else {
            let errorData = json["errorData"]
            outcome = .failure(
                message: try SyncMembers.string("result", in: json),
                errorData: errorData?.isNull == true ? nil : errorData?.wholeNumbersAsIntegers)
        }
    }
}
