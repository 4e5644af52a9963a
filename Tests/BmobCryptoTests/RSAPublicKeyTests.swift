import BmobCrypto
import Testing

/// RS256 (RSASSA-PKCS1-v1_5 with SHA-256) against signatures made once with Python's `cryptography` package
/// (OpenSSL underneath), and the key checks that refuse weak or malformed keys.
@Suite struct RSAPublicKeyTests {
    private static var key: RSAPublicKey {
        get throws { try #require(RSAPublicKey(modulus: modulus, exponent: exponent)) }
    }

    @Test("known-answer signatures verify: empty, short and multi-block messages")
    func knownAnswers() throws {
        let key = try Self.key
        #expect(key.bitCount == 2048)
        #expect(key.signatureByteCount == 256)
        for (message, signature) in [
            (Self.message0, Self.signature0), (Self.message1, Self.signature1), (Self.message2, Self.signature2),
        ] {
            #expect(key.verifySHA256PKCS1(message: message, signature: signature))
        }
        // Any byte collection works, including a slice that does not start at index zero.
        let padded = [0xFF] + Self.message2 + [0xFF]
        #expect(key.verifySHA256PKCS1(message: padded[1..<(padded.count - 1)], signature: Self.signature2))
        #expect(key.verifySHA256PKCS1(message: "abc".utf8, signature: Self.signature1))
    }

    @Test("a 3072-bit key with exponent 3 verifies its own signature")
    func otherSizeAndExponent() throws {
        let key = try #require(RSAPublicKey(modulus: Self.modulus3072, exponent: Self.exponent3072))
        #expect(key.bitCount == 3072)
        #expect(key.verifySHA256PKCS1(message: Self.message1, signature: Self.signature3072OfABC))
        #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: Self.signature1))
    }

    @Test("wrong signatures, altered messages and wrong lengths are refused")
    func refusals() throws {
        let key = try Self.key
        // A signature of another message, and another key's signature of this one.
        #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: Self.signature0))
        #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: Self.otherKeySignatureOfABC))
        // One bit flipped in the message, in the first and in the last byte of the signature.
        var flippedMessage = Self.message2
        flippedMessage[17] ^= 0x04
        #expect(!key.verifySHA256PKCS1(message: flippedMessage, signature: Self.signature2))
        for index in [0, 255, 100] {
            var flipped = Self.signature1
            flipped[index] ^= 0x01
            #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: flipped))
        }
        // Truncated, extended with a zero in front, empty, all zeros, the modulus itself.
        #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: Array(Self.signature1.dropLast())))
        #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: [0] + Self.signature1))
        #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: []))
        #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: [UInt8](repeating: 0, count: 256)))
        #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: Self.modulus))
        #expect(!key.verifySHA256PKCS1(message: Self.message1, signature: [UInt8](repeating: 0xFF, count: 256)))
        // Still verifies after all that: failures leave no state behind.
        #expect(key.verifySHA256PKCS1(message: Self.message1, signature: Self.signature1))
    }

    @Test("keys under 2048 or over 8192 bits, even moduli and bad exponents are refused")
    func keyChecks() {
        #expect(RSAPublicKey(modulus: Self.modulus1024, exponent: Self.exponent1024) == nil)
        // 2047 bits: the top byte of a 256-byte modulus below 0x80.
        var short = Self.modulus
        short[0] = 0x7F
        #expect(RSAPublicKey(modulus: short, exponent: Self.exponent) == nil)
        #expect(
            RSAPublicKey(modulus: [0x80] + [UInt8](repeating: 0, count: 1023) + [1], exponent: Self.exponent) == nil)
        #expect(RSAPublicKey(modulus: [0xFF] + [UInt8](repeating: 0xFF, count: 1023), exponent: Self.exponent) != nil)
        var even = Self.modulus
        even[even.count - 1] &= 0xFE
        #expect(RSAPublicKey(modulus: even, exponent: Self.exponent) == nil)
        for exponent: [UInt8] in [[], [0], [1], [2], [0, 1], [1, 0, 0], [UInt8](repeating: 0xFF, count: 9)] {
            #expect(RSAPublicKey(modulus: Self.modulus, exponent: exponent) == nil, "exponent \(exponent)")
        }
        #expect(RSAPublicKey(modulus: [], exponent: Self.exponent) == nil)
        #expect(RSAPublicKey(modulus: [UInt8](repeating: 0, count: 300), exponent: Self.exponent) == nil)
    }

    @Test("leading zero bytes are ignored, as JWKs sometimes carry them")
    func leadingZeros() throws {
        let key = try #require(RSAPublicKey(modulus: [0, 0] + Self.modulus, exponent: [0] + Self.exponent))
        #expect(key == (try Self.key))
        #expect(key.modulus == Self.modulus)
        #expect(key.verifySHA256PKCS1(message: Self.message1, signature: Self.signature1))
    }

    @Test("the PKCS #1 DER encoding matches OpenSSL's byte for byte")
    func derEncoding() throws {
        #expect(try Self.key.pkcs1DER == Self.der)
        // Exponent 3 and a 3072-bit modulus: a one-byte INTEGER and a two-byte long-form length.
        let key = try #require(RSAPublicKey(modulus: Self.modulus3072, exponent: Self.exponent3072))
        let der = key.pkcs1DER
        #expect(Array(der.prefix(8)) == [0x30, 0x82, 0x01, 0x88, 0x02, 0x82, 0x01, 0x81])
        #expect(der[8] == 0x00)
        #expect(Array(der.suffix(3)) == [0x02, 0x01, 0x03])
        #expect(der.count == 4 + 0x0188)
    }

    // MARK: - Vectors (generated once with Python's `cryptography`)

    /// The 2048-bit test key's modulus.
    static let modulus = Hex.bytes(
        """
        bef60046dd407f2439596dc49227a30665e26073d003ae645a217f640323528315ff9b3d1d8641cd0b395fecb9dd6ba4\
        ac2aca5b9bdf9ca945429fe60f7081698f03e7db59f38fc3af7dc8e23525b46453db8de4a38894f70e14423aa9e4e28f\
        1a262b8737b45294cb999551e0758d343e4a512c21c2f13aa526fd9aeb6858d2c2fcb28957bc829e6f8a00c32fdf8d74\
        efa5979683e19fd6a173d2b630f3e356b189f6562ae72a070ab49d2383b099777d95351f9afdde3178d0b86d650bf5f6\
        83e95ccab1237cc1b2c3d639f6553b4b8b350c75bf26ad9d8ef5151b722d6b52955f2379dee93a811990de2ad16668eb\
        6310c1529a4cfcc5692ce32f666cab37
        """)
    /// Its exponent, 65537.
    static let exponent = Hex.bytes("010001")
    /// Its PKCS #1 DER encoding, as `cryptography` writes it.
    static let der = Hex.bytes(
        """
        3082010a0282010100bef60046dd407f2439596dc49227a30665e26073d003ae645a217f640323528315ff9b3d1d8641\
        cd0b395fecb9dd6ba4ac2aca5b9bdf9ca945429fe60f7081698f03e7db59f38fc3af7dc8e23525b46453db8de4a38894\
        f70e14423aa9e4e28f1a262b8737b45294cb999551e0758d343e4a512c21c2f13aa526fd9aeb6858d2c2fcb28957bc82\
        9e6f8a00c32fdf8d74efa5979683e19fd6a173d2b630f3e356b189f6562ae72a070ab49d2383b099777d95351f9afdde\
        3178d0b86d650bf5f683e95ccab1237cc1b2c3d639f6553b4b8b350c75bf26ad9d8ef5151b722d6b52955f2379dee93a\
        811990de2ad16668eb6310c1529a4cfcc5692ce32f666cab370203010001
        """)
    /// The empty message.
    static let message0 = Hex.bytes("")
    /// The key's RS256 signature of ``message0``.
    static let signature0 = Hex.bytes(
        """
        29d44ed7026b971b325e98b181f9344faec544b7612a6cd2482f64ec02385bd1cca748184917909b01f7f71503ff5ab7\
        8dae7058e442a8c2f32096975eaf154fbf011830f4f7da75f8af1b5be6b5efd082f5a3cbbe9c5ef9d8636234c46b649e\
        0d2525c28ed150a0383f7a603db590c38cfed7f28fdbe4730a5c85d024473a707b5cab489c1a14bbdb25fe225f5e914c\
        ca5f6f2d6cfac47c8f570825aaab6bfa1ff10e04c659ce0a561521168d9283faa5f65665af51d195f880b4404df6f68c\
        4930902fe72d1482c83059f92bafd8cd2b8d5c8a1c9533cb762ce4674aa895e24e29ca48caa1c8a44bf59970a4c57d93\
        5a8bb3a518daca1ba06480f446fab604
        """)
    /// `abc`.
    static let message1 = Hex.bytes("616263")
    /// The key's RS256 signature of ``message1``.
    static let signature1 = Hex.bytes(
        """
        aa54a80f0b0b33318cb6a2054a04705dc0ec3a0df106a750b4f3bafd5a2e0cf3c086960067311359632bd7a731c29b98\
        dea9ae560c021ec2cade4e0d0df663fab274e9edd29d200fa74ba6ccea1a7b07dd00676b5504a793595bff8d3366b088\
        b3acd12297affffc5acb722bdf3b3660bdc63d1b9793ae38c0a4a7798e53139dccdcd752b7fc8dacc59a399a81e8682b\
        c9d221d2b2490bacc66147dafbcffa7ad60abbb43c464e15935a3eaa15e93b050949916bbfdbb6ab5e3cdb650dbe27e6\
        426e306376f8b7c2766846c7243c3b4c8516b69772f7e4711061f987d98b03d768c93aa36cde17163a88c83eff511503\
        06c805637cdad753cee55a2b90dfc430
        """)
    /// A 430-byte message.
    static let message2 = Hex.bytes(
        """
        54686520717569636b2062726f776e20666f78206a756d7073206f76657220746865206c617a7920646f675468652071\
        7569636b2062726f776e20666f78206a756d7073206f76657220746865206c617a7920646f6754686520717569636b20\
        62726f776e20666f78206a756d7073206f76657220746865206c617a7920646f6754686520717569636b2062726f776e\
        20666f78206a756d7073206f76657220746865206c617a7920646f6754686520717569636b2062726f776e20666f7820\
        6a756d7073206f76657220746865206c617a7920646f6754686520717569636b2062726f776e20666f78206a756d7073\
        206f76657220746865206c617a7920646f6754686520717569636b2062726f776e20666f78206a756d7073206f766572\
        20746865206c617a7920646f6754686520717569636b2062726f776e20666f78206a756d7073206f7665722074686520\
        6c617a7920646f6754686520717569636b2062726f776e20666f78206a756d7073206f76657220746865206c617a7920\
        646f6754686520717569636b2062726f776e20666f78206a756d7073206f76657220746865206c617a7920646f67
        """)
    /// The key's RS256 signature of ``message2``.
    static let signature2 = Hex.bytes(
        """
        4a577edf9bdc5c0d9c34b52e4288bbb9cafac70c4c7ad4db3bd8b088c2e67d624870c126459f888de5c330a5b28cbb82\
        bf9691c39703b29af221eea76980dac2d509d94138e2edf3778039dc78c7b52250a6f69ba4a95bfc154f1fabf6a4bf79\
        38276718639aa4d2b2116bd5ae6a34a6cdcf02f729246bd106893453e60fac68afc5ebe51a7a8b2c3de3ec711fa266e0\
        c95fa5624c929f018001d2a1c674668db5ee30b85fff8869df7ad9059f6ed9e1ee9eed0535927a0e8e5d5f13a247117e\
        01424fce82b87dd45139af663c500b4ca7d4503381d1ff57cd2ba36eb2fc7b1021751b49b4cf8b98c0cb7b24355ca475\
        9f48b722f7c1da42c66b74d554ed66d5
        """)
    /// Another 2048-bit key's signature of `abc`.
    static let otherKeySignatureOfABC = Hex.bytes(
        """
        5166a4bf96632429839761cf83d02cb01baf370a34bf7b998673cc9aae82326d1e038bd6a6a8eb950d223785205d7d2a\
        02b95db7650859afbe601fcc75b0268e5c400f2f61b151a90cbe2fb06aadcb716fee3be6c596983cb1bbe9cfdab88999\
        fc5111b110d45899eff22899c3f721c5573f5bdf65473343982c29437ccbb4b5d5eeb7d567f799e49e2a769d57b45431\
        ff26c207bb798e2e61d5ebcb7128691e28acac7ce98185915c9c77b32f39a4192cc06711e5bacae84916e7cb4241a85c\
        8d3e265291c0ea04840e6b07edf0d20b931380a3dd043266a40e64b8ff8196113fa34b4f69c02852cc96f12bcfeed310\
        fd791d878f9b86f49c3cc31d2b23c25e
        """)
    /// A 3072-bit key with exponent 3.
    static let modulus3072 = Hex.bytes(
        """
        e75e3fe4f14c0fc89f4662d45e696a46b7b2297b4abad058ad35bb2d7ea69ff90f1c36c516038373e9ea3f26ec083073\
        05179a05e1c676398fe5bb1e5ebbcf735193e93f2bceffab96c5a186acb01a8c09243d9a038b5ebf24f0f8b69b48ce34\
        b2785712ed50a8cdc188311c8a65d4186af32563d97106f1ed6591a836b0e57d7edfa311191ef958c240e516dee37f18\
        faa098d36f84135bcc21fcebf3e61df4f6c04b325e07e6671a7f50b1d5883d19b2932e781affb2dd3ed32b7389ebe43e\
        d05bd1f255698c06ee02e8575dbc97642543140969e5fbcdf659d44332a4bd23c453c468bef2b3f92104d60488d1d804\
        e4c690aa5c27d6f2b2b2b0727b7bd79c2874f2eb1aa4ce330ca589ab53f6d9d480b63fb856c935fb8045f1755b450dc8\
        42ed69d1cfef79665191ddd6573b606e3e5d4b18c4ccdb8f9a022721c6fc76f51697bf3e8a6c77003105695beb612743\
        8f95c69091e8c8d01488a1ceaa2204f7e5b8f9b6f1cbf3c7cf3600deee9855db90aa8b8dd566a647b80b0eedaf1453ab
        """)
    /// Its exponent, 3.
    static let exponent3072 = Hex.bytes("03")
    /// Its signature of `abc`.
    static let signature3072OfABC = Hex.bytes(
        """
        0613fa866ee791bd6d0f5e150a511219e63b0ffe1c7a0a212eb7c0d039ca4e8436ce574c1d5c178106a9174c814f005e\
        ee404143dc44d6eb11b7ffa1488a568461cc27853e4298e77107e74bf8a8ea9258e5ff9c40f677cc68c32ba18f2e4dfe\
        ca37df66a4d25a0aa736111d4bde9c5a8eb7308c575c7ca98f30e438f18c6de0ce9ef84c673acdef9908a6f3050fcf49\
        9acc31c1bc82d9c9b521828e1c21817fecc25d3f56e725785f1dd1108c82440f40448026b4f8ecd82dbfac16b8686ca6\
        c948f5761fa37b70e5b6a006003651e453bc0f64a61e71d58096960839d43715541f2adbce558099c649e5a3685d811c\
        67a93eec3c630526051e6e85576a817d59b7a310e9dffd4c91d52f397b37421bc7c03185b019ac94a7088ee6a88331b1\
        99cef69b61851865ae56b24504aa3833858b7a41728fcc81346165911e99a70a3c06cf37347f61814d5ecc6b272457c6\
        fa770acc668f26f494ed5289b796cdacd80d7c7291cbcbc5bcaf94a8cc0055f34633b9d9b9f6f284cfc2795a9142fa5e
        """)
    /// A real 1024-bit modulus, too small to accept.
    static let modulus1024 = Hex.bytes(
        """
        a2311f504ab87c71f1faa41471b5a690d98c136eb64d79626945b99ccbd9d725e167a888efd5a230e468200e60f5f049\
        4ebbbe657bed7ed3b8a153efb15cbf66c42242f56a5d8ae5e284915f71f37b7957f04d3c7f8998e1a284d9d6350c3e3f\
        aa1e16606c792163ae2ab126141beff1e9ce83447a034de7be3c29fc2321eac9
        """)
    /// Its exponent.
    static let exponent1024 = Hex.bytes("010001")
}
