public import BmobCore
package import BmobWire
import Foundation

/// A point on Earth: `{"__type":"GeoPoint","latitude":…,"longitude":…}`.
///
/// ```swift
/// let location = BmobGeoPoint(latitude: 39.9042, longitude: 116.4074)
/// ```
public struct BmobGeoPoint: Sendable, Hashable, BmobJSONConvertible {
    /// Degrees north, -90…90 (values outside are clamped).
    public var latitude: Double
    /// Degrees east, -180…180 (values outside are clamped).
    public var longitude: Double

    /// A point; coordinates outside the valid ranges are clamped to them.
    public init(latitude: Double, longitude: Double) {
        self.latitude = min(90, max(-90, latitude))
        self.longitude = min(180, max(-180, longitude))
    }

    package var bmobJSON: JSONValue {
        value.json
    }

    /// The point as BmobWire's value, for queries.
    package var value: GeoPointValue {
        GeoPointValue(latitude: latitude, longitude: longitude)
    }

    /// Great-circle distance to `other` in kilometres (mean Earth radius 6371 km).
    public func distance(inKilometersTo other: BmobGeoPoint) -> Double {
        let radians = Double.pi / 180
        let dLat = (other.latitude - latitude) * radians
        let dLon = (other.longitude - longitude) * radians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(latitude * radians) * cos(other.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 6371 * 2 * atan2(a.squareRoot(), (1 - a).squareRoot())
    }
}
