// The seed's samples start with `import BirdRealtime` alone and then build `URL`s for the auth endpoints and pass a
// `DispatchQueue`: the module re-exports Foundation (which brings Dispatch) so that they compile as written.
@_exported public import Foundation
