/// A location: `{"__type":"GeoPoint","latitude":…,"longitude":…}`.
package struct GeoPointValue: Sendable, Hashable {
    package var latitude: Double
    package var longitude: Double

    package init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both coordinates are in range (latitude −90…90, longitude −180…180); Bmob code 117 otherwise.
    package var isValid: Bool {
        (-90.0...90.0).contains(latitude) && (-180.0...180.0).contains(longitude)
    }

    package var json: JSONValue {
        ["__type": "GeoPoint", "latitude": .double(latitude), "longitude": .double(longitude)]
    }

    /// Reads a GeoPoint object; `nil` for anything else.
    package init?(json: JSONValue) {
        guard json["__type"]?.stringValue == "GeoPoint", let latitude = json["latitude"]?.doubleValue,
            let longitude = json["longitude"]?.doubleValue
        else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }
}
