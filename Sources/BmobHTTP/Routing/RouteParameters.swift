/// Values captured by a route's `:name` segments (percent-decoded) and its trailing `**`.
package struct RouteParameters: Sendable, Equatable {
    private var values: [(name: String, value: String)] = []

    package init() {}

    package init(_ values: [(name: String, value: String)]) {
        self.values = values
    }

    package subscript(name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    package mutating func append(name: String, value: String) {
        values.append((name, value))
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.values.count == rhs.values.count && zip(lhs.values, rhs.values).allSatisfy { $0 == $1 }
    }
}
