import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing

// The seed's 数据操作 section, compiled as written and checked through REST. The suite is `@MainActor`, as
// an app's view code is; the 数据查询 samples run from plain async functions.

extension EndToEnd {
    @Suite("Seed samples: 数据操作")
    @MainActor
    struct DataOperationSamples {
        @Test("创建数据对象: subscript fields and save")
        func createObject() async throws {
            _ = try await SDKFixture.server()
            // 创建新对象
            let note = BmobObject(className: "Note")

            // 设置字段（使用下标语法）
            note["title"] = "我的笔记"
            note["content"] = "这是内容"
            note["priority"] = 1
            note["isCompleted"] = false
            note["tags"] = ["工作", "重要"]
            note["metadata"] = ["viewCount": 100, "likeCount": 50]

            // 保存
            do {
                try await note.save()
                print("创建成功，objectId: \(note.objectId!)")
            } catch {
                print("创建失败: \(error)")
            }

            let objectId = try #require(note.objectId)
            #expect(objectId.count == 10)
            #expect(note.createdAt != nil)
            let stored = try #require(try await SDKFixture.restObject("Note", objectId))
            #expect(stored["title"] == "我的笔记")
            #expect(stored["content"] == "这是内容")
            #expect(stored["priority"] == 1)
            #expect(stored["isCompleted"] == false)
            #expect(stored["tags"] == ["工作", "重要"])
            #expect(stored["metadata"] == ["viewCount": 100, "likeCount": 50])
        }

        @Test("保存带关联的对象: pointers")
        func saveWithPointers() async throws {
            _ = try await SDKFixture.server()
            try await SDKFixture.ensureUser("user123", username: "张三")
            let categoryId = try await SDKFixture.restCreate("Category", ["name": "随笔"])

            // 创建笔记并关联作者
            let note = BmobObject(className: "Note")
            note["title"] = "关联文章"
            note["author"] = BmobPointer(className: "_User", objectId: "user123")
            note["category"] = BmobPointer(className: "Category", objectId: categoryId)

            try await note.save()

            let stored = try #require(try await SDKFixture.restObject("Note", note.objectId ?? ""))
            #expect(stored["author"] == ["__type": "Pointer", "className": "_User", "objectId": "user123"])
            #expect(stored["category"] == ["__type": "Pointer", "className": "Category", "objectId": .string(categoryId)])
            let author = try #require(note["author"] as? BmobPointer)
            #expect(author == BmobPointer(className: "_User", objectId: "user123"))
        }

        @Test("批量操作: save in a loop, then updateBatch")
        func batchOperations() async throws {
            _ = try await SDKFixture.server()
            // 批量创建
            let objects = [
                BmobObject(className: "Note", data: ["title": "笔记1"]),
                BmobObject(className: "Note", data: ["title": "笔记2"]),
                BmobObject(className: "Note", data: ["title": "笔记3"])
            ]

            for object in objects {
                try await object.save()
            }

            #expect(objects.allSatisfy { $0.objectId != nil })
            for (index, object) in objects.enumerated() {
                object["title"] = "已更新\(index + 1)"
                object.increment("views", by: 2)
            }

            // 批量更新
            try await BmobObject.updateBatch(objects)

            for (index, object) in objects.enumerated() {
                let stored = try #require(try await SDKFixture.restObject("Note", object.objectId ?? ""))
                #expect(stored["title"] == .string("已更新\(index + 1)"))
                #expect(stored["views"] == 2)
                #expect(object.updatedAt != nil)
                #expect(object.hasUnsavedChanges == false)
            }
        }

        @Test("内嵌对象: a nested [String: Any]")
        func nestedObject() async throws {
            _ = try await SDKFixture.server()
            let person = BmobObject(className: "Person")
            person["name"] = "张三"
            person["profile"] = [
                "age": 25,
                "city": "北京",
                "occupation": "工程师"
            ] as [String: Any]

            try await person.save()

            let stored = try #require(try await SDKFixture.restObject("Person", person.objectId ?? ""))
            #expect(stored["profile"] == ["age": 25, "city": "北京", "occupation": "工程师"])
            let profile = try #require(person["profile"] as? [String: Any])
            #expect(profile["age"] as? Int == 25)
        }
    }
}
