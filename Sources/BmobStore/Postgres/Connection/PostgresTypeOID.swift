/// The type OIDs of PostgreSQL's built-in types that result columns of the store's statements have: fixed in
/// every PostgreSQL version (`pg_type.dat`), so they are constants rather than looked up.
enum PostgresTypeOID {
    static let bool: UInt32 = 16
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let varchar: UInt32 = 1043
    static let numeric: UInt32 = 1700
    static let json: UInt32 = 114
    static let jsonb: UInt32 = 3802
}
