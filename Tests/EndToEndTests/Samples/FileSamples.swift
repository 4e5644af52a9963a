import BmobSDK
import BmobTesting
import BmobWire
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The seed's 文件管理 section, compiled as written against the in-process server. `UIImage` is not available
// off Apple platforms: the samples that start from one start from JPEG-like bytes instead, and the download
// sample compares the bytes instead of decoding an image. Samples that end with `else { return }` run inside
// functions of their own, as they would in an app.

extension EndToEnd {
    @Suite("Seed samples: 文件管理")
    @MainActor
    struct FileSamples {
        /// Bytes standing in for a photo: a JPEG header and random content, so that every upload differs.
        static func photoBytes(_ count: Int = 4096) -> Data {
            var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0]
            bytes += (0..<max(0, count - 6)).map { _ in UInt8.random(in: 0...255) }
            bytes += [0xFF, 0xD9]
            return Data(bytes)
        }

        /// The bytes behind a file URL, and the status.
        static func download(_ text: String) async throws -> (Data, Int) {
            let url = try #require(URL(string: text))
            let (data, response) = try await URLSession.shared.data(from: url)
            return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
        }

        /// The `_File` records of the test app with this URL.
        static func fileRecords(url: String) async throws -> [[String: JSONValue]] {
            let condition = "{\"url\":\"\(url)\"}"
            return try await SDKFixture.restObjects("_File", where: condition)
        }

        /// Removes `_User.avatar` from the schema and every user. The seed's 用户管理 sample stores a URL string
        /// there and this section a File; each test that sets it leaves the class as it found it.
        static func dropUserAvatarField() async throws {
            let server = try await SDKFixture.server()
            var body: [UInt8] = []
            JSONValue.object(["fields": ["avatar": ["__op": "Delete"]]]).appendJSON(to: &body)
            let response = try await server.request(
                "PUT", "/1/schemas/_User", headers: server.masterHeaders + [("Content-Type", "application/json")],
                body: body)
            // 200, or an error when the field (or the class) is not there.
            #expect(response.status < 500)
        }

        // MARK: - 上传文件

        /// The first sample, `UIImage` replaced by bytes; returns the file it uploaded.
        private func uploadPhotoSample(_ imageData: Data) async -> BmobFile {
            let file = BmobFile(data: imageData, filename: "photo.jpg", mimeType: "image/jpeg")

            do {
                try await file.upload { progress in
                    print("上传进度: \(Int(progress * 100))%")
                }
                print("文件 URL: \(file.url!)")
                print("CDN: \(file.cdn ?? "")")
            } catch {
                print("上传失败: \(error)")
            }
            return file
        }

        @Test("上传文件: bytes with a MIME type, progress closure, url and cdn")
        func uploadData() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            let imageData = Self.photoBytes()
            let file = await uploadPhotoSample(imageData)

            let url = try #require(file.url)
            #expect(file.cdn == "local")
            #expect(file.filename == "photo.jpg")
            #expect(url.hasSuffix(".jpg"))
            let (downloaded, status) = try await Self.download(url)
            #expect(status == 200)
            #expect(downloaded == imageData)
            let records = try await Self.fileRecords(url: url)
            #expect(records.count == 1)
            #expect(records.first?["mimeType"] == "image/jpeg")
            #expect(records.first?["size"] == .int(Int64(imageData.count)))
        }

        // MARK: - 从本地路径上传

        /// The sample, with the path of a real file.
        private func uploadFromPathSample(_ path: String) async throws -> BmobFile? {
            guard let file = BmobFile(filePath: path) else { return nil }
            try await file.upload { progress in
                print("上传进度: \(Int(progress * 100))%")
            }
            print("文件 URL: \(file.url!)")
            return file
        }

        @Test("从本地路径上传: BmobFile(filePath:)")
        func uploadFromPath() async throws {
            let server = try await SDKFixture.server()
            BmobUser.logout()
            let folder = server.dataDirectory.appendingPathComponent("sample-files-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let source = folder.appendingPathComponent("video.mp4")
            let bytes = Self.photoBytes(100_000)
            try bytes.write(to: source)

            let file = try #require(try await uploadFromPathSample(source.path))
            let url = try #require(file.url)
            #expect(url.hasSuffix(".mp4"))
            #expect(file.filename == "video.mp4")
            let (downloaded, status) = try await Self.download(url)
            #expect(status == 200)
            #expect(downloaded == bytes)
            #expect(try await Self.fileRecords(url: url).first?["mimeType"] == "video/mp4")

            // The sample's own path does not exist here: the initializer answers nil.
            #expect(BmobFile(filePath: "/path/to/video.mp4") == nil)
        }

        // MARK: - 在对象中保存文件 and 下载文件

        @Test("在对象中保存文件, 下载文件: fileDict in a user, then the URL's bytes")
        func saveInUserAndDownload() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            try await Self.dropUserAvatarField()
            let imageData = Self.photoBytes(2048)

            // 上传文件
            let file = BmobFile(data: imageData, filename: "avatar.jpg")
            try await file.upload()

            // 创建用户并设置头像
            let user = BmobUser()
            user.username = "newuser"
            user.password = "password123"
            user["avatar"] = file.fileDict(filename: "avatar.jpg")
            try await user.signUp()

            let stored = try #require(try await SDKFixture.restObject("_User", user.objectId ?? ""))
            #expect(
                stored["avatar"] == [
                    "__type": "File", "filename": "avatar.jpg", "url": .string(file.url ?? ""),
                    "group": .string(file.cdn ?? ""),
                ])
            let avatar = try #require(user["avatar"] as? [String: Any])
            #expect(avatar["url"] as? String == file.url)

            let downloaded = try await downloadSample(file)
            #expect(downloaded == imageData)
            BmobUser.logout()
            try await Self.dropUserAvatarField()
        }

        /// The 下载文件 sample: `UIImage(data:)` becomes the bytes themselves.
        private func downloadSample(_ file: BmobFile) async throws -> Data? {
            // 使用上传成功后返回的 url（域名以实际 CDN 为准，如 *.bmobpay.com）
            guard let url = URL(string: file.url!) else { return nil }

            let (data, _) = try await URLSession.shared.data(from: url)
            let image = data
            return image
        }

        // MARK: - 删除文件

        @Test("删除文件: BmobFile(url:cdn:) then delete()")
        func deleteByURL() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            let uploadedFile = BmobFile(data: Self.photoBytes(), filename: "gone.jpg")
            try await uploadedFile.upload()
            let uploadedURL = try #require(uploadedFile.url)
            #expect(try await Self.download(uploadedURL).1 == 200)

            // 优先使用上传后的 BmobFile（含 url / cdn）；也可用 URL 重建
            let file = BmobFile(url: uploadedURL, cdn: "aliyun")
            try await file?.delete()

            #expect(file != nil)
            #expect(file?.filename == uploadedURL.split(separator: "/").last.map(String.init))
            #expect(try await Self.download(uploadedURL).1 == 404)
            #expect(try await Self.fileRecords(url: uploadedURL).isEmpty)

            // The uploaded object itself deletes the same way (its own cdn).
            let second = BmobFile(data: Self.photoBytes(), filename: "gone-too.png")
            try await second.upload()
            let secondURL = try #require(second.url)
            try await second.delete()
            #expect(try await Self.download(secondURL).1 == 404)
        }

        // MARK: - 批量操作

        @Test("批量操作: uploadBatch with progress, deleteBatch by URLs")
        func batch() async throws {
            _ = try await SDKFixture.server()
            BmobUser.logout()
            let data1 = Self.photoBytes(1000), data2 = Self.photoBytes(3000), data3 = Self.photoBytes(6000)
            let log = ValueLog<Double>()

            // 批量上传
            let files = [
                BmobFile(data: data1, filename: "file1.jpg"),
                BmobFile(data: data2, filename: "file2.jpg"),
                BmobFile(data: data3, filename: "file3.jpg")
            ]

            let uploaded = try await BmobFile.uploadBatch(files) { progress in
                print("批量上传进度: \(Int(progress * 100))%")
                log.append(progress)
            }

            #expect(uploaded.count == 3)
            #expect(uploaded.allSatisfy { $0.url != nil })
            let values = log.values
            #expect(values.last == 1.0)
            #expect(values == values.sorted())
            #expect(values.dropLast().allSatisfy { $0 < 1.0 })
            for (file, data) in zip(uploaded, [data1, data2, data3]) {
                #expect(try await Self.download(file.url ?? "").0 == data)
            }

            // 批量删除（传入上传返回的 url 列表）
            try await BmobFile.deleteBatch(urls: uploaded.compactMap { $0.url })

            for file in uploaded {
                #expect(try await Self.download(file.url ?? "").1 == 404)
            }
        }
    }
}
