import BmobWire

extension SQLConditionCompiler {
    /// Earth's mean radius, for the default `$nearSphere` distance (the where parser uses the same).
    static var earthRadiusKilometers: Double { 6371.0 }
    /// `$nearSphere` without a maximum: Bmob's 100 km, in radians.
    static var defaultMaximumDistanceRadians: Double { 100.0 / earthRadiusKilometers }

    /// `$nearSphere`: within the great-circle distance (radians) of `point`. A latitude band comes first,
    /// so an index on the field's `latitude` can narrow the scan; the dialect's distance does the exact test.
    mutating func near(
        _ path: SQLFieldPath,
        _ point: GeoPointValue,
        maxDistanceRadians: Double?,
        _ scope: Scope
    ) throws -> SQLFragment {
        guard point.isValid else { throw StoreError.invalidQuery("$nearSphere needs a valid GeoPoint") }
        let distance = maxDistanceRadians ?? Self.defaultMaximumDistanceRadians
        guard distance.isFinite, distance >= 0 else { throw StoreError.invalidQuery("invalid maximum distance") }
        let latitude = dialect.field(path, member: "latitude")
        let longitude = dialect.field(path, member: "longitude")
        let distanceExpression = dialect.distance(from: point, latitude: latitude, longitude: longitude)
        if scope.isMain, nearestOrder == nil {
            nearestOrder = distanceExpression
        }
        var parts: [SQLFragment] = []
        let degrees = distance * 180 / Double.pi
        if degrees < 90 {
            parts.append(
                SQLFragment(
                    "\(latitude) BETWEEN ? AND ?", [.real(point.latitude - degrees), .real(point.latitude + degrees)]))
        }
        var within = distanceExpression
        within.append(" <= ?")
        within.arguments.append(.real(distance))
        parts.append(within)
        return .all(parts)
    }

    /// `$within: {$box: [southwest, northeast]}`: latitude and longitude between the corners; a box whose
    /// west edge lies east of its east edge crosses the 180th meridian.
    func box(_ path: SQLFieldPath, southwest: GeoPointValue, northeast: GeoPointValue) throws -> SQLFragment {
        guard southwest.isValid, northeast.isValid else { throw StoreError.invalidQuery("$box needs valid GeoPoints") }
        let latitude = dialect.field(path, member: "latitude")
        let longitude = dialect.field(path, member: "longitude")
        let latitudes = SQLFragment(
            "\(latitude) BETWEEN ? AND ?", [.real(southwest.latitude), .real(northeast.latitude)])
        let longitudes =
            southwest.longitude <= northeast.longitude
            ? SQLFragment("\(longitude) BETWEEN ? AND ?", [.real(southwest.longitude), .real(northeast.longitude)])
            : SQLFragment(
                "(\(longitude) >= ? OR \(longitude) <= ?)", [.real(southwest.longitude), .real(northeast.longitude)])
        return .all([latitudes, longitudes])
    }
}
