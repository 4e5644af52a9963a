import BmobHTTP
import BmobWire

/// REST cloud functions: `POST /1/functions/<name>` with the parameters as a JSON object (an empty body is `{}`)
/// → `{"result": …}`; every parameter a string when ``ServerConfiguration/functionParamsAsStrings`` says so.
package enum FunctionRoutes {
    /// Adds the route.
    package static func register(in router: inout BmobRouter, runner: OperationRunner, paramsAsStrings: Bool) {
        router.operation(.post, "/1/functions/:name", runner: runner) { request, _ in
            let params = request.http.body.isEmpty ? [:] : try request.jsonObjectBody()
            return .callFunction(name: request.parameter("name"), params: params, paramsAsStrings: paramsAsStrings)
        }
    }
}
