package import BmobWire

extension BmobRealtimeAction {
    /// The class permission an anonymous subscriber needs to receive the event: `find` for table events, `get`
    /// for row events.
    package var requiredOperation: ClassOperation { isRowAction ? .get : .find }
}
