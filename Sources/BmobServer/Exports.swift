// A server binary of one's own needs `JSONValue` (cloud functions' parameters and results) with `import BmobServer`
// alone.
@_exported public import BmobWire
