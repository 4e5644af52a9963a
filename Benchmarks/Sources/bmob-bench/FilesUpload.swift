import BmobCrypto
import BmobIO
import BmobWire
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `bmob-bench files-upload`: one large file through `bmob serve`'s multipart path, as the SDK's uploader
/// does it (the files benchmark, Benchmarks/files_throughput.py):
///
/// 1. `/8/cdn` `{filename, size}` in the native envelope (a `User-Agent` of the current time, `Accept-Id`
///    keyed with its bytes 1 to 16, the body keyed with the app's secret key): the plan, with the S3
///    endpoint, the key, the part size and short-lived credentials;
/// 2. `POST ?uploads` on `<endpoint>/<bucket>/<key>`, signed with SigV4 by those credentials;
/// 3. `PUT ?partNumber&uploadId` for each part, `--in-flight` at a time on as many keep-alive connections,
///    each part read from the source file when its turn comes (one part-sized buffer per connection),
///    signed with its SHA-256;
/// 4. `POST ?uploadId` with the `CompleteMultipartUpload` list;
/// 5. `/8/savecdnupload` `{key, filename, filesize, cdn, sessionToken}`.
///
/// Prints one JSON line: the file's key and URL, and when each step ended (wall-clock milliseconds, so that
/// a sampler of the server's memory can tell the steps apart).
enum FilesUpload {
    static let usage = """
        usage: bmob-bench files-upload --port P --app-id ID --secret-key KEY --file PATH [--name NAME] [--in-flight N]
        """

    struct Options {
        var port: UInt16 = 0
        var applicationId = ""
        var secretKey = ""
        var path = ""
        var name = ""
        var inFlight = 4
    }

    static func main(_ arguments: [String]) -> Never {
        let options = parse(arguments)
        let source = open(options.path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { fail("cannot open \(options.path): errno \(errno)") }
        let size: Int
        do {
            size = try Posix.fileSize(source)
        } catch {
            fail("cannot read the size of \(options.path): \(error)")
        }
        let started = wallMilliseconds()
        let cpuBefore = ProcessSample.ownCPUSeconds()
        let native = NativeCaller(port: options.port, applicationId: options.applicationId, secretKey: options.secretKey)

        // 1. The plan.
        let answer = native.call("cdn", ["filename": .string(options.name), "size": .int(Int64(size))])
        guard let upload = answer["upload"], let key = upload["key"]?.stringValue,
            let endpoint = upload["endpoint"]?.stringValue, let bucket = upload["bucket"]?.stringValue,
            let region = upload["region"]?.stringValue, let partSize = upload["partSize"]?.int64Value, partSize > 0,
            let token = upload["uploadToken"]?.stringValue, let block = upload["credentials"],
            let accessKeyId = block["accessKeyId"]?.stringValue, let secret = block["secretAccessKey"]?.stringValue
        else {
            fail("/8/cdn gave no multipart plan for \(size) bytes: \(answer.jsonString)")
        }
        let cdn = answer["cdn"]?.stringValue ?? "local"
        let credentials = SigV4Credentials(
            accessKeyId: accessKeyId, secretAccessKey: secret, sessionToken: block["sessionToken"]?.stringValue)
        let target = S3Target(endpoint: endpoint, bucket: bucket, key: key, region: region, credentials: credentials)
        let planned = wallMilliseconds()

        // 2. Initiate.
        let control = FilesHTTPConnection(port: options.port)
        let initiated = target.send(control, "POST", query: [("uploads", "")])
        guard initiated.status == 200, let uploadId = try? S3InitiateMultipartUploadResult(xml: initiated.body).uploadId
        else {
            fail("initiate: \(initiated.status) \(initiated.text)")
        }
        let initiatedAt = wallMilliseconds()

        // 3. The parts, `inFlight` at a time.
        let partBytes = Int(partSize)
        let count = max(1, (size + partBytes - 1) / partBytes)
        let board = LockedValue(PartBoard(etags: [String?](repeating: nil, count: count)))
        let workers = min(options.inFlight, count)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let connection = FilesHTTPConnection(port: options.port)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: partBytes, alignment: 64)
            defer { buffer.deallocate() }
            while let index = board.withLock({ $0.take() }) {
                let offset = index * partBytes
                let length = min(partBytes, size - offset)
                let part = UnsafeRawBufferPointer(rebasing: buffer[0..<length])
                readFully(source, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<length]), offset: offset)
                var hasher = SHA256Hasher()
                hasher.update(part)
                let hash = Hex.encode(hasher.finalize())
                let response = target.send(
                    connection, "PUT", query: [("partNumber", "\(index + 1)"), ("uploadId", uploadId)], body: part,
                    payloadHash: hash)
                guard response.status == 200, let etag = response.headers["ETag"] else {
                    fail("part \(index + 1): \(response.status) \(response.text)")
                }
                board.withLock { $0.etags[index] = etag }
            }
        }
        let partsAt = wallMilliseconds()
        close(source)

        // 4. Complete.
        let etags = board.withLock { $0.etags }
        let list = S3CompleteMultipartUpload(
            parts: etags.enumerated().map { .init(partNumber: $0.offset + 1, etag: $0.element ?? "") })
        let completed = target.send(control, "POST", query: [("uploadId", uploadId)], body: Array(list.xml.utf8))
        guard completed.status == 200, (try? S3CompleteMultipartUploadResult(xml: completed.body)) != nil else {
            fail("complete: \(completed.status) \(completed.text)")
        }
        let completedAt = wallMilliseconds()

        // 5. Register.
        let saved = native.call(
            "savecdnupload",
            ["key": .string(key), "filename": .string(options.name), "filesize": .int(Int64(size)), "cdn": .string(cdn),
             "sessionToken": .string(token)])
        guard let url = saved["url"]?.stringValue else { fail("savecdnupload: no url in \(saved.jsonString)") }
        let savedAt = wallMilliseconds()
        let result: JSONValue = [
            "key": .string(key), "url": .string(url), "bytes": .int(Int64(size)), "parts": .int(Int64(count)),
            "part_bytes": .int(partSize), "in_flight": .int(Int64(workers)),
            "started_ms": .int(started), "planned_ms": .int(planned), "initiated_ms": .int(initiatedAt),
            "parts_ms": .int(partsAt), "completed_ms": .int(completedAt), "saved_ms": .int(savedAt),
            "client_cpu_seconds": .double(ProcessSample.ownCPUSeconds() - cpuBefore),
        ]
        print(result.jsonString)
        exit(0)
    }

    /// Which parts are still to send, and the ETags of those sent.
    struct PartBoard: Sendable {
        var etags: [String?]
        var next = 0

        /// The index of the next part to send, if any is left.
        mutating func take() -> Int? {
            guard next < etags.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    /// Reads `buffer.count` bytes of `fd` at `offset`.
    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, offset: Int) {
        var filled = 0
        while filled < buffer.count {
            let read: Int
            do {
                read = try Posix.pread(
                    fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), offset: offset + filled)
            } catch {
                fail("reading the source file failed: \(error)")
            }
            guard read > 0 else { fail("the source file ended early (it changed during the upload)") }
            filled += read
        }
    }

    private static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { fail("\(flag) needs a value\n\(usage)") }
            switch flag {
            case "--port":
                guard let port = UInt16(value), port > 0 else { fail("--port needs a port number") }
                options.port = port
            case "--app-id": options.applicationId = value
            case "--secret-key": options.secretKey = value
            case "--file": options.path = value
            case "--name": options.name = value
            case "--in-flight":
                guard let count = Int(value), count > 0 else { fail("--in-flight needs a positive integer") }
                options.inFlight = count
            default: fail("unknown option \(flag)\n\(usage)")
            }
        }
        guard options.port > 0, !options.applicationId.isEmpty, !options.secretKey.isEmpty, !options.path.isEmpty else {
            fail(usage)
        }
        if options.name.isEmpty { options.name = String(options.path.split(separator: "/").last ?? "upload.bin") }
        return options
    }
}

/// The S3 object an upload writes, and requests to it signed with SigV4 (path style:
/// `<endpoint path>/<bucket>/<key>`, `Host` as the endpoint names it).
struct S3Target: Sendable {
    let host: String
    let path: String
    let signer: SigV4Signer

    init(endpoint: String, bucket: String, key: String, region: String, credentials: SigV4Credentials) {
        // `http://host:port/prefix`: the host for the `Host` field, the prefix for the path.
        var rest = Substring(endpoint)
        for scheme in ["http://", "https://"] where rest.hasPrefix(scheme) { rest = rest.dropFirst(scheme.count) }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        host = String(rest[..<slash])
        var prefix = String(rest[slash...])
        if prefix.hasSuffix("/") { prefix.removeLast() }
        path = prefix + "/" + bucket + "/" + key
        signer = SigV4Signer(credentials: credentials, region: region)
    }

    /// Sends `method` with `query` and `body`, signed with the body's SHA-256 (`payloadHash` when the caller
    /// has it already).
    func send(
        _ connection: FilesHTTPConnection, _ method: String, query: [(String, String)], body: UnsafeRawBufferPointer,
        payloadHash: String? = nil
    ) -> FilesHTTPConnection.Response {
        let request = SigV4Request(
            method: method, unencodedPath: path, query: query.map { (name: $0.0, value: $0.1) },
            headers: [(name: "host", value: host)], payloadHash: payloadHash ?? SHA256.hex(Array(body)))
        var headers: [(name: String, value: String)] = [("Host", host)]
        headers += signer.sign(request, secondsSince1970: wallMilliseconds() / 1000)
        let target = request.path + (query.isEmpty ? "" : "?" + request.queryString)
        return connection.request(method, target, headers: headers, body: body)
    }

    /// ``send(_:_:query:body:payloadHash:)`` with a body held in an array.
    func send(_ connection: FilesHTTPConnection, _ method: String, query: [(String, String)], body: [UInt8] = [])
        -> FilesHTTPConnection.Response
    {
        body.withUnsafeBytes { send(connection, method, query: query, body: $0) }
    }
}

/// Calls native `/8/` routes as the SDK does, with the app's secret key known beforehand (the SDK learns it
/// from `/8/secret`): a fresh `User-Agent` of the current time per call, `Accept-Id` sealed with its bytes 1
/// to 16, the common members beside the route's own, the body and answer sealed with the secret key.
struct NativeCaller {
    let port: UInt16
    let applicationId: String
    let key: [UInt8]

    init(port: UInt16, applicationId: String, secretKey: String) {
        self.port = port
        self.applicationId = applicationId
        key = NativeEnvelope.key(secretKey)
    }

    /// Posts `data` to `/8/<route>` and returns the answer's `data`; fails the benchmark on any error.
    func call(_ route: String, _ data: [String: JSONValue]) -> JSONValue {
        let seconds = wallMilliseconds() / 1000
        let userAgent = "\(seconds)Linux1.0.0"
        let acceptId = String(
            decoding: NativeEnvelope.seal(Array(applicationId.utf8), key: NativeEnvelope.acceptIdKey(userAgent: userAgent)),
            as: UTF8.self)
        let body: JSONValue = [
            "client": ["caller": "Linux", "version": "1.0.0", "ex": ["uuid": "bmob-bench", "package": "bmob-bench"]],
            "v": "v2.4.1", "appSign": "bmob-bench/1", "timestamp": .int(seconds), "data": .object(data),
        ]
        let connection = FilesHTTPConnection(port: port)
        let response = connection.request(
            "POST", "/8/\(route)",
            headers: [
                ("Host", "127.0.0.1:\(port)"), ("Content-Type", "text/html;charset=utf-8"),
                ("Accept-Encoding", "identity"), ("User-Agent", userAgent), ("Accept-Id", acceptId),
            ],
            body: NativeEnvelope.seal(body, key: key))
        let envelope: [String: JSONValue]
        do {
            envelope = try NativeEnvelope.openJSON(response.body, key: key)
        } catch {
            fail("/8/\(route): HTTP \(response.status), an answer that does not open (\(error)): \(response.text)")
        }
        guard let code = envelope["result"]?["code"]?.int64Value, code == 200, let data = envelope["data"] else {
            fail("/8/\(route) failed: \(JSONValue.object(envelope).jsonString)")
        }
        return data
    }
}
