/// How far an export or an import is: the class at work and the objects done of all the objects.
package struct TransferProgress: Sendable {
    /// The app.
    package var applicationId: String
    /// The class at work.
    package var className: String
    /// Objects of the class done.
    package var done: Int
    /// Objects of the class in all.
    package var total: Int
}
