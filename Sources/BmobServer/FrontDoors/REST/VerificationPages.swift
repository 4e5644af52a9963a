import BmobHTTP
import BmobWire

/// The small HTML pages a browser sees when it follows an emailed link: the new-password form, and the
/// outcome of a reset or a verification. Every value is HTML-escaped; pages are never cached, send no
/// referrer (the token is in the URL) and cannot be framed.
enum VerificationPages {
    /// The form of `GET /1/resetPassword/<token>`, posting `password` and `confirm` back to the same URL.
    static func resetForm(appName: String, email: String) -> HTTPResponse {
        page(
            status: .ok, title: "Reset your password",
            content: """
                <p>Choose a new password for the <b>\(escaped(appName))</b> account of <b>\(escaped(email))</b>.</p>
                <form method="post">
                <label>New password <input type="password" name="password" required autocomplete="new-password"></label>
                <label>Repeat it <input type="password" name="confirm" required autocomplete="new-password"></label>
                <button type="submit">Set the password</button>
                </form>
                """)
    }

    /// A page with a title and one sentence.
    static func message(status: HTTPStatus = .ok, title: String, _ text: String) -> HTTPResponse {
        page(status: status, title: title, content: "<p>\(escaped(text))</p>")
    }

    /// A Bmob error as a page: its message and code.
    static func error(_ error: BmobAPIError) -> HTTPResponse {
        page(
            status: error.status, title: "This link cannot be used",
            content: "<p>\(escaped(error.message))</p><p class=\"code\">Error \(error.code.rawValue)</p>")
    }

    private static func page(status: HTTPStatus, title: String, content: String) -> HTTPResponse {
        let html = """
            <!doctype html>
            <html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escaped(title))</title>
            <style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
            label{display:block;margin:1rem 0}
            input{display:block;width:100%;padding:.5rem;margin-top:.25rem;box-sizing:border-box}
            button{padding:.6rem 1.2rem}.code{color:#777;font-size:.9rem}</style></head>
            <body><main><h1>\(escaped(title))</h1>
            \(content)
            </main></body></html>
            """
        return HTTPResponse(
            status: status,
            headers: [
                "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store",
                "Referrer-Policy": "no-referrer",
                "X-Frame-Options": "DENY",
                "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'",
            ],
            body: Array(html.utf8))
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
