import BmobSDK
import BmobWire
import Testing

// The seed's 地理位置 section, compiled as written.

extension EndToEnd {
    @Suite("Seed samples: 地理位置")
    @MainActor
    struct GeoSamples {
        private func place(_ className: String, _ name: String, _ latitude: Double, _ longitude: Double) async throws {
            try await SDKFixture.restCreate(className, [
                "name": .string(name),
                "location": ["__type": "GeoPoint", "latitude": .double(latitude), "longitude": .double(longitude)],
            ])
        }

        @Test("创建地理位置 and 附近查询")
        func nearby() async throws {
            try await SDKFixture.emptyClasses("User")
            try await place("User", "天安门", 39.9087, 116.3975)    // ~1 km
            try await place("User", "天津", 39.3434, 117.3616)      // ~110 km
            try await place("User", "上海", 31.2304, 121.4737)      // ~1070 km

            let location = BmobGeoPoint(latitude: 39.9042, longitude: 116.4074)
            #expect(location.latitude == 39.9042)

            // 附近的人（100km 范围内）
            let userLocation = BmobGeoPoint(latitude: 39.9042, longitude: 116.4074)

            let query = BmobQuery(className: "User")
                .whereKey("location", nearGeoPoint: userLocation, withinKilometers: 100)
                .limit(20)

            let nearbyUsers = try await query.find()
            #expect(nearbyUsers.compactMap { $0["name"] as? String } == ["天安门"])
            let point = try #require(nearbyUsers.first?.geoPoint(forKey: "location"))
            #expect(point.distance(inKilometersTo: userLocation) < 2)

            let wider = try await BmobQuery(className: "User")
                .whereKey("location", nearGeoPoint: userLocation, withinKilometers: 200).find()
            #expect(wider.compactMap { $0["name"] as? String } == ["天安门", "天津"])
        }

        @Test("矩形区域查询: withinGeoBox")
        func box() async throws {
            try await SDKFixture.emptyClasses("Store")
            try await place("Store", "王府井", 39.91, 116.41)
            try await place("Store", "中关村", 39.98, 116.31)
            try await place("Store", "通州", 39.90, 116.66)

            let southwest = BmobGeoPoint(latitude: 39.8, longitude: 116.3)
            let northeast = BmobGeoPoint(latitude: 40.0, longitude: 116.5)

            let query = BmobQuery(className: "Store")
                .whereKey("location", withinGeoBox: southwest, northeast: northeast)

            let stores = try await query.find()
            #expect(Set(stores.compactMap { $0["name"] as? String }) == ["王府井", "中关村"])
        }
    }
}
