package import BmobWire

extension BmobAPIError {
    /// A request body that could not be decoded, with its code (HTTP status 400, or 401 for credentials).
    package init(request error: BmobRequestError) {
        self.init(error.code, error.message, status: error.code == .unauthorized ? .unauthorized : .badRequest)
    }
}
