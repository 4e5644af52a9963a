import Testing

/// Every end-to-end suite nests in this one: they share the SDK's global client and one in-process server,
/// so they run one at a time and each starts from the state it sets up.
@Suite(.serialized)
enum EndToEnd {}
