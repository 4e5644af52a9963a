/// How far a read without a transaction went (``PostgresConnection/beginAutocommitRead()``).
enum AutocommitRead {
    /// No statement yet.
    case waiting
    /// Its one statement ran.
    case ran
    /// A further statement was refused: the read runs again in a transaction.
    case refused
}
