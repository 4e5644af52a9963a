/// A file stored by the server (the SDK's file API lands with the uploader).
public final class BmobFile: Sendable {}
