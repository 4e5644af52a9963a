/// The type of a field in a Bmob class, as the schema registry records it and `/1/schemas` shows it.
package enum BmobFieldType: String, Sendable, Hashable, CaseIterable {
    case string = "String"
    case number = "Number"
    case boolean = "Boolean"
    case date = "Date"
    case file = "File"
    case geoPoint = "GeoPoint"
    case array = "Array"
    case object = "Object"
    case pointer = "Pointer"
    case relation = "Relation"
}
