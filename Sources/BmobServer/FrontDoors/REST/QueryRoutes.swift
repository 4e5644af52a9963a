import BmobHTTP
package import BmobWire

/// REST queries: `GET /1/classes/<C>` with `where`, `order`, `limit`, `skip`, `keys`, `include`, `count` and
/// the statistics parameters, and BQL through `GET /1/cloudQuery?bql=…&values=[…]`.
package enum QueryRoutes {
    package static func register(in router: inout BmobRouter, runner: OperationRunner) {
        router.operation(.get, "/1/classes/:className", runner: runner) { request, _ in
            .find(try decode(className: request.parameter("className"), request.http.queryItems))
        }
        router.operation(.get, "/1/cloudQuery", runner: runner) { request, _ in
            let (bql, values) = try cloudQueryParameters(request)
            return .cloudQuery(bql: bql, values: values)
        }
    }

    package static func decode(className: String, _ parameters: [(name: String, value: String)]) throws(BmobAPIError) -> FindQuery {
        do {
            return try FindQueryDecoder.decode(className: className, parameters: parameters)
        } catch {
            throw BmobAPIError(query: error)
        }
    }

    /// `bql` and the JSON array `values` from the query string (601 when either is unusable).
    private static func cloudQueryParameters(_ request: BmobRequest) throws(BmobAPIError) -> (String, [JSONValue]) {
        guard let bql = request.http.query("bql"), !bql.trimmingSpaces().isEmpty else {
            throw BmobAPIError(.invalidBQL, "missing bql parameter")
        }
        var values: [JSONValue] = []
        if let text = request.http.query("values"), !text.trimmingSpaces().isEmpty {
            guard let parsed = try? JSONParser.parse(text), case .array(let list) = parsed else {
                throw BmobAPIError(.invalidBQL, "values must be a JSON array")
            }
            values = list
        }
        return (bql, values)
    }
}
