import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing

// The seed's 云函数 section (and the README's cloud lines), compiled as written, against functions registered on
// the shared server (``CloudFunctionFixture``).

/// 类型安全调用: the seed's result type.
struct Greeting: Decodable {
    let message: String
    let code: Int
}

/// 复杂返回类型.
struct UserList: Decodable {
    let users: [UserInfo]
    let total: Int
}

struct UserInfo: Decodable {
    let objectId: String
    let username: String
    let createdAt: String
}

/// The README's typed call.
struct HelloResponse: Decodable {
    let message: String
}

extension EndToEnd {
    @Suite("Seed samples: 云函数")
    struct CloudSamples {
        @Test("基本调用: without and with parameters, and fire-and-forget")
        func basicCalls() async throws {
            _ = try await SDKFixture.server()
            do {
                // 无参数调用
                let result = try await BmobCloud.run(function: "hello")
                #expect(result as? String == "Hello from the cloud")
            }
            do {
                // 带参数调用
                let result = try await BmobCloud.run(
                    function: "greet",
                    params: ["name": "World"]
                )
                // The function answered JSON text, which the untyped call hands back as it came.
                let text = try #require(result as? String)
                #expect(try JSONParser.parse(text)["message"] == "Hello, World!")
            }

            // fire-and-forget（不等待返回）
            BmobCloud.fire(function: "sendNotification", params: ["userId": "123"])
            for _ in 0..<200 where CloudFunctionFixture.calls(of: "sendNotification").isEmpty {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(CloudFunctionFixture.calls(of: "sendNotification").last == ["userId": "123"])
        }

        @Test("云函数参数注意事项: every parameter value reaches the function as a string")
        func paramsArriveAsStrings() async throws {
            _ = try await SDKFixture.server()
            // 客户端可传多种类型
            try await BmobCloud.run(
                function: "updateScore",
                params: [
                    "userId": "abc123",
                    "score": 42,           // 云函数中 request.body.score === "42"
                    "completed": true      // 云函数中 request.body.completed === "true"
                ]
            )
            let received = try #require(CloudFunctionFixture.calls(of: "updateScore").last)
            #expect(received == ["userId": "abc123", "score": "42", "completed": "true"])
            _ = try await BmobCloud.run(function: "updateScore", params: ["items": [1, 2, 3], "nested": ["a": 1]])
            let nested = try #require(CloudFunctionFixture.calls(of: "updateScore").last)
            #expect(nested["items"] == "[1,2,3]")
            #expect(nested["nested"] == #"{"a":1}"#)
        }

        @Test("类型安全调用 and 复杂返回类型: JSON text and JSON values decode")
        func typedCalls() async throws {
            _ = try await SDKFixture.server()
            let greeting: Greeting = try await BmobCloud.run(
                function: "greet",
                params: ["name": "Swift"]
            )
            print(greeting.message)
            #expect(greeting.message == "Hello, Swift!")
            #expect(greeting.code == 0)

            let result: UserList = try await BmobCloud.run(function: "getUserList")
            for user in result.users {
                print("\(user.username)")
            }
            #expect(result.users.map(\.username) == ["alice", "bob"])
            #expect(result.total == 2)
        }

        @Test("README: 调用云函数 and 类型安全调用")
        func readmeCalls() async throws {
            _ = try await SDKFixture.server()
            // 调用云函数
            let result = try await BmobCloud.run(function: "helloWorld", params: ["name": "Bmob"])
            #expect((result as? [String: Any])?["message"] as? String == "Hello, Bmob")
            // 类型安全调用
            let response: HelloResponse = try await BmobCloud.run(function: "helloWorld")
            #expect(response.message == "Hello, world")
        }

        @Test("errors: an unknown function is 311, a function's own refusal its code, a crash 310; a bad type decodes as an error")
        func errors() async throws {
            _ = try await SDKFixture.server()
            await #expect { try await BmobCloud.run(function: "noSuchFunction") } throws: { error in
                (error as? BmobError)?.code == 311
            }
            await #expect { try await BmobCloud.run(function: "greet") } throws: { error in
                (error as? BmobError)?.code == 400
            }
            await #expect { try await BmobCloud.run(function: "broken") } throws: { error in
                (error as? BmobError)?.code == 310
            }
            await #expect(throws: BmobError.self) {
                let _: UserList = try await BmobCloud.run(function: "hello")
            }
        }
    }
}

extension EndToEnd {
    @Suite("Triggers from the SDK")
    struct TriggerSDKTests {
        @Test("beforeSave refuses or completes an SDK save; beforeFind narrows an SDK query")
        func saveAndFind() async throws {
            try await SDKFixture.emptyClasses("TriggeredNote")
            let untitled = BmobObject(className: "TriggeredNote")
            untitled["title"] = ""
            await #expect { try await untitled.save() } throws: { error in (error as? BmobError)?.code == 142 }

            let note = BmobObject(className: "TriggeredNote")
            note["title"] = "Hello Triggers"
            try await note.save()
            let objectId = try #require(note.objectId)
            let stored = try await SDKFixture.restObjects("TriggeredNote")
            #expect(stored.first { $0["objectId"]?.stringValue == objectId }?["slug"] == "hello-triggers")

            let archived = BmobObject(className: "TriggeredNote")
            archived["title"] = "Old"
            archived["archived"] = true
            try await archived.save()
            let found = try await BmobQuery(className: "TriggeredNote").find()
            #expect(found.compactMap(\.objectId) == [objectId])
        }
    }
}
