/// The `Content-Type` of a stored file, from its extension: what downloads answer, and what the SDK sends when
/// the app names none.
package enum FileContentType {
    /// The type for `fileExtension` (case-insensitive, without the dot); `application/octet-stream` when unknown.
    package static func forExtension(_ fileExtension: some StringProtocol) -> String {
        types[fileExtension.lowercased()] ?? "application/octet-stream"
    }

    private static let types: [String: String] = [
        "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp",
        "heic": "image/heic", "bmp": "image/bmp", "ico": "image/x-icon", "svg": "image/svg+xml",
        "tif": "image/tiff", "tiff": "image/tiff",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "avi": "video/x-msvideo",
        "mkv": "video/x-matroska", "3gp": "video/3gpp",
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav", "ogg": "audio/ogg",
        "flac": "audio/flac", "amr": "audio/amr",
        "txt": "text/plain; charset=utf-8", "csv": "text/csv; charset=utf-8", "md": "text/markdown; charset=utf-8",
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8", "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8", "json": "application/json", "xml": "application/xml",
        "pdf": "application/pdf", "zip": "application/zip", "gz": "application/gzip", "tar": "application/x-tar",
        "doc": "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "apk": "application/vnd.android.package-archive", "ipa": "application/octet-stream",
        "wasm": "application/wasm", "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf",
    ]
}
