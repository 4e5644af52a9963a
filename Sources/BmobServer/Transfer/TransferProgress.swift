/// How far an export or an import is: the class at work and the objects done of all the objects.
package struct TransferProgress: Sendable {
    package var applicationId: String
    package var className: String
    package var done: Int
    package var total: Int
}
