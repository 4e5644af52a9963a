import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing

// The seed's 数据查询 section, compiled as written (each snippet in its own function, ids substituted) and
// run against a known set of notes.

extension EndToEnd {
    @Suite("Seed samples: 数据查询")
    struct QuerySamples {
        /// Six notes with known fields; returns their ids by title.
        private func seedNotes() async throws -> [String: String] {
            try await SDKFixture.emptyClasses("Note")
            let rows: [JSONValue] = [
                ["title": "Swift 入门指南", "status": 1, "score": 90, "priority": 1, "type": "work", "tags": ["Swift", "iOS"], "email": "a@example.com", "publishedAt": "2026-01-01"],
                ["title": "草稿", "status": 1, "score": 95, "priority": 2, "type": "personal", "tags": ["随笔"], "email": "b@example.org"],
                ["title": "Swift 并发", "status": 0, "score": 70, "priority": 3, "type": "work", "tags": ["Swift"], "email": "c@example.com", "deletedAt": "2026-02-01"],
                ["title": "iOS 入门", "status": 1, "score": 85, "priority": 3, "type": "personal", "tags": ["iOS"], "email": "d@example.com", "publishedAt": "2026-03-01"],
                ["title": "数据库", "status": 2, "score": 60, "priority": 5, "type": "other", "tags": [], "email": "e@example.net"],
                ["title": "Swift 服务端", "status": 1, "score": 81, "priority": 4, "type": "work", "tags": ["Swift", "Server"], "email": "f@example.com"],
            ]
            var ids: [String: String] = [:]
            for row in rows {
                ids[row["title"]?.stringValue ?? ""] = try await SDKFixture.restCreate("Note", row)
            }
            return ids
        }

        private func titles(_ objects: [BmobObject]) -> [String] {
            objects.compactMap { $0["title"] as? String }
        }

        @Test("基础查询: find all, get one")
        func basicQuery() async throws {
            let ids = try await seedNotes()
            let abc123 = try #require(ids["草稿"])
            // 查询所有记录
            let query = BmobQuery(className: "Note")
            let results = try await query.find()

            // 查询单条
            let note = try await query.get(objectId: abc123)

            #expect(results.count == 6)
            #expect(note.objectId == abc123)
            #expect(note["title"] as? String == "草稿")
            #expect(note.createdAt != nil && note.updatedAt != nil)
            await #expect(throws: BmobError.self) { _ = try await query.get(objectId: "0000000000") }
        }

        @Test("条件查询: chained conditions")
        func conditions() async throws {
            _ = try await seedNotes()
            let query = BmobQuery(className: "Note")
                .whereKey("status", equalTo: 1)           // 等于
                .whereKey("score", greaterThan: 80)        // 大于
                .whereKey("priority", lessThanOrEqualTo: 3) // 小于等于
                .whereKey("title", notEqualTo: "草稿")      // 不等于

            let results = try await query.find()
            #expect(Set(titles(results)) == ["Swift 入门指南", "iOS 入门"])
        }

        @Test("数组包含查询 and 字段存在性")
        func containmentAndExistence() async throws {
            _ = try await seedNotes()
            do {
                // 数组包含查询
                let query = BmobQuery(className: "Note")
                    .whereKey("tags", containedIn: ["Swift", "iOS"])
                let results = try await query.find()
                #expect(Set(titles(results)) == ["Swift 入门指南", "Swift 并发", "iOS 入门", "Swift 服务端"])
            }
            do {
                // 字段存在性
                let query = BmobQuery(className: "Note")
                    .whereKeyExists("publishedAt")
                    .whereKeyDoesNotExist("deletedAt")
                let results = try await query.find()
                #expect(Set(titles(results)) == ["Swift 入门指南", "iOS 入门"])
            }
        }

        @Test("模糊查询: regex, prefix, suffix")
        func patterns() async throws {
            _ = try await seedNotes()
            do {
                // 正则匹配
                let query = BmobQuery(className: "Note")
                    .whereKey("title", matchesRegex: ".*入门.*")
                #expect(Set(titles(try await query.find())) == ["Swift 入门指南", "iOS 入门"])
            }
            do {
                // 前缀匹配
                let query = BmobQuery(className: "Note")
                    .whereKey("title", startsWith: "Swift")
                #expect(Set(titles(try await query.find())) == ["Swift 入门指南", "Swift 并发", "Swift 服务端"])
            }
            do {
                // 后缀匹配
                let query = BmobQuery(className: "Note")
                    .whereKey("email", endsWith: "@example.com")
                #expect(titles(try await query.find()).count == 4)
            }
            do {
                // Metacharacters in a prefix are literal.
                let query = BmobQuery(className: "Note").whereKey("email", endsWith: ".org")
                #expect(titles(try await query.find()) == ["草稿"])
            }
        }

        @Test("排序: order replaces, addAscendingOrder appends")
        func ordering() async throws {
            _ = try await seedNotes()
            do {
                let query = BmobQuery(className: "Note")
                    .order(byDescending: "createdAt")    // 按创建时间降序
                    .order(byAscending: "priority")       // 按优先级升序
                let priorities = try await query.find().compactMap { $0["priority"] as? Int }
                #expect(priorities == [1, 2, 3, 3, 4, 5])
            }
            do {
                // 添加多个排序
                let query = BmobQuery(className: "Note")
                    .order(byDescending: "status")
                    .addAscendingOrder("createdAt")
                let results = try await query.find()
                #expect(results.compactMap { $0["status"] as? Int } == [2, 1, 1, 1, 1, 0])
                #expect(titles(results)[1...4] == ["Swift 入门指南", "草稿", "iOS 入门", "Swift 服务端"])
            }
        }

        @Test("分页: limit and skip")
        func paging() async throws {
            _ = try await seedNotes()
            let query = BmobQuery(className: "Note")
                .limit(20)    // 每页 20 条
                .skip(40)     // 跳过前 40 条（获取第 3 页）
            #expect(try await query.find().isEmpty)
            let page = try await BmobQuery(className: "Note").order(byAscending: "score").limit(2).skip(2).find()
            #expect(page.compactMap { $0["score"] as? Int } == [81, 85])
        }

        @Test("字段选择: selectKeys")
        func selectKeys() async throws {
            _ = try await seedNotes()
            // 只返回指定字段
            let query = BmobQuery(className: "Note")
                .selectKeys(["title", "createdAt"])
            let results = try await query.find()
            #expect(results.count == 6)
            for note in results {
                #expect(note["title"] is String)
                #expect(note["score"] == nil)
                #expect(note.objectId != nil)
            }
        }

        @Test("关联查询: includeKey expands the pointer")
        func include() async throws {
            _ = try await SDKFixture.server()
            try await SDKFixture.emptyClasses("Note")
            try await SDKFixture.ensureUser("user123", username: "张三")
            try await SDKFixture.restCreate("Note", ["title": "有作者", "author": ["__type": "Pointer", "className": "_User", "objectId": "user123"]])
            try await SDKFixture.restCreate("Note", ["title": "无作者"])

            // 查询时一并返回关联对象
            let query = BmobQuery(className: "Note")
                .whereKey("author", equalTo: BmobPointer(className: "_User", objectId: "user123"))
                .includeKey("author")  // 展开作者信息

            let results = try await query.find()
            // 访问关联对象
            var printed: Any?
            if let author = results.first?["author"] as? [String: Any] {
                print("作者: \(author["username"] ?? "")")
                printed = author["username"]
            }
            #expect(results.count == 1)
            #expect(printed as? String == "张三")
            #expect(results.first?.object(forKey: "author")?["username"] as? String == "张三")
        }

        @Test("组合查询: and / or")
        func compound() async throws {
            _ = try await seedNotes()
            do {
                // AND 查询
                let query1 = BmobQuery(className: "Note").whereKey("status", equalTo: 1)
                let query2 = BmobQuery(className: "Note").whereKey("priority", greaterThan: 2)

                var found: [BmobObject] = []
                if let andQuery = BmobQuery.and([query1, query2]) {
                    let results = try await andQuery.find()
                    found = results
                }
                #expect(Set(titles(found)) == ["iOS 入门", "Swift 服务端"])
            }
            do {
                // OR 查询
                let query1 = BmobQuery(className: "Note").whereKey("type", equalTo: "work")
                let query2 = BmobQuery(className: "Note").whereKey("type", equalTo: "personal")

                var found: [BmobObject] = []
                if let orQuery = BmobQuery.or([query1, query2]) {
                    let results = try await orQuery.find()
                    found = results
                }
                #expect(found.count == 5)
            }
            #expect(BmobQuery.or([]) == nil)
            #expect(BmobQuery.and([BmobQuery(className: "A"), BmobQuery(className: "B")]) == nil)
        }

        @Test("统计查询: statistics grouped by a field")
        func statistics() async throws {
            try await SDKFixture.emptyClasses("Order")
            for (category, amount) in [("书", 10), ("书", 30), ("食品", 5)] {
                try await SDKFixture.restCreate("Order", ["category": .string(category), "amount": .int(Int64(amount))])
            }
            let query = BmobQuery(className: "Order")
                .selectKeys(["amount"])
                .statistics()
                .groupBy(["category"])

            let stats = try await query.statistics()

            let books = try #require(stats.first { $0["category"] as? String == "书" })
            #expect(books["_sumAmount"] as? Int == 40)
            #expect(books["_avgAmount"] as? Double == 20 || books["_avgAmount"] as? Int == 20)
            #expect(books["_maxAmount"] as? Int == 30)
            #expect(books["_minAmount"] as? Int == 10)
            #expect(books["_count"] as? Int == 2)
            #expect(stats.count == 2)
        }

        @Test("计数: count")
        func count() async throws {
            _ = try await seedNotes()
            let query = BmobQuery(className: "Note")
                .whereKey("status", equalTo: 1)

            let count = try await query.count()
            print("符合条件的记录数: \(count)")
            #expect(count == 4)
        }

        @Test("缓存策略: cacheThenNetwork answers from the cache")
        func cachePolicy() async throws {
            _ = try await seedNotes()
            var query = BmobQuery(className: "Note")
            query.cachePolicy = .cacheThenNetwork  // 先取缓存再查网络

            let results = try await query.find()
            #expect(results.count == 6)

            // The first answer came from the network and was cached; a note created now is not in the cached
            // answer the next call returns…
            try await SDKFixture.restCreate("Note", ["title": "新笔记"])
            var again = BmobQuery(className: "Note")
            again.cachePolicy = .cacheThenNetwork
            #expect(try await again.find().count == 6)
            // …and the background refresh brings it in for a later call.
            var refreshed = 6
            for _ in 0..<50 where refreshed == 6 {
                try await Task.sleep(for: .milliseconds(20))
                refreshed = try await again.find().count
            }
            #expect(refreshed == 7)
        }
    }
}
