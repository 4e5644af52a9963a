// The child process of the SDK's resume-after-kill test.
//
// Usage: bmob-upload-client <server URL> <application key> <local storage folder> <file path>
//
// Uploads the file with BmobFile as an app would, its resume records in the given folder, and prints each step of
// the multipart upload as one line (`initiated <parts>`, `resumed <parts>`, `ack <part>`, `done`) in one write(2)
// call, so the parent, which kills it with SIGKILL midway, sees exactly the parts the storage acknowledged.
import BmobCore
import BmobFile
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes one line with a single write(2): atomic on a pipe, and never buffered in this process.
func writeLine(_ text: String) {
    let line = Array("\(text)\n".utf8)
    var offset = 0
    while offset < line.count {
        let written = line[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if written < 0 {
            if errno == EINTR { continue }
            exit(3)
        }
        offset += written
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 5 else {
    writeLine("usage: bmob-upload-client <server URL> <application key> <local storage folder> <file path>")
    exit(2)
}
BmobLocalStorage.setRoot(URL(fileURLWithPath: arguments[3], isDirectory: true))
Bmob.resetDomain(arguments[1])
do {
    try await Bmob.initialize(appKey: arguments[2])
    guard let file = BmobFile(filePath: arguments[4]) else {
        writeLine("error no such file")
        exit(2)
    }
    file.multipartObserver = { event in
        switch event {
        case .initiated(let partCount): writeLine("initiated \(partCount)")
        case .resumed(let parts, let partCount): writeLine("resumed \(parts.count) of \(partCount)")
        case .acknowledged(let part): writeLine("ack \(part)")
        default: break
        }
    }
    try await file.upload()
    writeLine("done")
} catch {
    writeLine("error \(error)")
    exit(1)
}
