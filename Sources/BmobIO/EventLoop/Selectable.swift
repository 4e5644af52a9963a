/// Something registered with an event loop's selector: a listener or a connection. Called on the loop.
package protocol Selectable: AnyObject {
    /// The descriptor became ready for `events`.
    func selectorEvent(_ events: SelectorEventSet)
}
