import BmobCore
import Foundation

/// The bytes a ``BmobFile`` uploads: held in memory, or read from a local file a part at a time.
enum FileContent: Sendable {
    /// Bytes given to the file.
    case data(Data)
    /// A local file, read when uploading (never as a whole once it is above the multipart threshold).
    case path(URL)

    /// The number of bytes, read from the file system for a path.
    ///
    /// - Throws: ``BmobError/invalidParameter(reason:)`` when the file is gone or is not a regular file.
    func byteCount() throws(BmobError) -> Int64 {
        switch self {
        case .data(let data):
            return Int64(data.count)
        case .path(let url):
            let attributes: [FileAttributeKey: Any]
            do {
                attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            } catch {
                throw .invalidParameter(reason: "cannot read \(url.path): \(error.localizedDescription)")
            }
            guard (attributes[.type] as? FileAttributeType) != .typeDirectory else {
                throw .invalidParameter(reason: "\(url.path) is a directory")
            }
            guard let size = (attributes[.size] as? NSNumber)?.int64Value else {
                throw .invalidParameter(reason: "cannot read the size of \(url.path)")
            }
            return size
        }
    }

    /// All the bytes, for uploads below the multipart threshold.
    func allBytes() throws(BmobError) -> Data {
        switch self {
        case .data(let data):
            return data
        case .path(let url):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw .invalidParameter(reason: "cannot read \(url.path): \(error.localizedDescription)")
            }
        }
    }

    /// `count` bytes from `offset` (fewer at the end of the content), as a `Data` of its own.
    func read(offset: Int64, count: Int) throws(BmobError) -> Data {
        switch self {
        case .data(let data):
            let start = data.startIndex + Int(offset)
            let end = min(start + count, data.endIndex)
            guard start <= end else { return Data() }
            return Data(data[start..<end])
        case .path(let url):
            do {
                let handle = try FileHandle(forReadingFrom: url)
                defer { try? handle.close() }
                try handle.seek(toOffset: UInt64(offset))
                return try handle.read(upToCount: count) ?? Data()
            } catch {
                throw .invalidParameter(reason: "cannot read \(url.path): \(error.localizedDescription)")
            }
        }
    }
}
