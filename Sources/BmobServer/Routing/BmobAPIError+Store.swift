package import BmobStore
import BmobWire

extension BmobAPIError {
    /// A store failure as clients see it: its Bmob code and safe message; internal faults as a generic 500.
    /// A 5xx keeps the store error's safe description as its ``cause``, for the front door's log line.
    package init(store error: StoreError) {
        switch error.bmobCode {
        case .internalError:
            self.init(.internalError, "internal server error", status: .internalServerError)
            cause = error.description
        case .unavailable:
            self.init(.unavailable, "the server is busy, try again later", status: .serviceUnavailable)
            cause = error.description
        default:
            self.init(error.bmobCode, error.message)
        }
    }

    /// Code 101 for an object id that does not exist, worded as Bmob words it.
    package static func objectNotFound(_ objectId: String) -> BmobAPIError {
        BmobAPIError(.objectNotFound, "object not found for \(objectId).")
    }
}
