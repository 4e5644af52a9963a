package import BmobWire

extension BmobAPIError {
    /// A query that could not be parsed (102, 103, 117, or 601 for BQL).
    package init(query error: QueryParseError) {
        self.init(error.code, error.message)
    }
}
