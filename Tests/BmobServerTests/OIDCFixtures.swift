/// Tokens and key sets signed once with Python's `cryptography` (RSASSA-PKCS1-v1_5, SHA-256) for the OIDC tests.
///
/// Keys `k1` and `k2` are 2048-bit RSA keys; `k1024` is a 1024-bit one. All tokens use issuer
/// `https://id.example.com` and audience `client-123` unless their name says otherwise.
enum OIDCFixtures {
    /// The moment the tokens are built around, in milliseconds since 1970 (2025-06-15T15:06:40Z).
    static let now: Int64 = 1_750_000_000_000
    /// The issuer every token but ``wrongIssuer`` names.
    static let issuer = "https://id.example.com"
    /// The audience every token but ``wrongAudience`` names.
    static let audience = "client-123"
    /// A set holding `k1`.
    static let jwksK1 = """
        {"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"k1","n":"vvYARt1AfyQ5WW3EkiejBmXiYHPQA65kWiF_\
        ZAMjUoMV_5s9HYZBzQs5X-y53WukrCrKW5vfnKlFQp_mD3CBaY8D59tZ84_Dr33I4jUltGRT243ko4iU9w4UQjqp5OKPGiYrhze0\
        UpTLmZVR4HWNND5KUSwhwvE6pSb9mutoWNLC_LKJV7yCnm-KAMMv341076WXloPhn9ahc9K2MPPjVrGJ9lYq5yoHCrSdI4OwmXd9\
        lTUfmv3eMXjQuG1lC_X2g-lcyrEjfMGyw9Y59lU7S4s1DHW_Jq2djvUVG3Ita1KVXyN53uk6gRmQ3irRZmjrYxDBUppM_MVpLOMv\
        ZmyrNw","e":"AQAB"}]}
        """
    /// A set holding `k1` and `k2`.
    static let jwksK1K2 = """
        {"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"k1","n":"vvYARt1AfyQ5WW3EkiejBmXiYHPQA65kWiF_\
        ZAMjUoMV_5s9HYZBzQs5X-y53WukrCrKW5vfnKlFQp_mD3CBaY8D59tZ84_Dr33I4jUltGRT243ko4iU9w4UQjqp5OKPGiYrhze0\
        UpTLmZVR4HWNND5KUSwhwvE6pSb9mutoWNLC_LKJV7yCnm-KAMMv341076WXloPhn9ahc9K2MPPjVrGJ9lYq5yoHCrSdI4OwmXd9\
        lTUfmv3eMXjQuG1lC_X2g-lcyrEjfMGyw9Y59lU7S4s1DHW_Jq2djvUVG3Ita1KVXyN53uk6gRmQ3irRZmjrYxDBUppM_MVpLOMv\
        ZmyrNw","e":"AQAB"},{"kty":"RSA","use":"sig","alg":"RS256","kid":"k2","n":"zRkEdRyFI38oJPd--9fW_P1H0\
        S_6t835FlBIIIj7rVOU1rxFzz9fmjD46J8v7Um-PmBl1kziknWQdrKBB8tZoaQly0AZcgMgXiBObp95lcxzQME5S_cYIbEAmmrpQ\
        kqUgdL6L5sEgeW181M6e3zd6nE4RTLfFOCCjNZSFOdydz6Axfcpd4-1pN2jjySe9WTCbA2HJtaG8lEtr9Bn_xBo0F3qtogh9y_iG\
        xATRFXYhFHskxD81_vYDdR-9kuZe62xEw-9wUEV-9Nte6qj59fiw_UGkVN2AzLo48JbdkpyjBNlJD0Cm-7ErRlxrF0jjPjZOegZJ\
        pc4NfGz0BQ7jf0Arw","e":"AQAB"}]}
        """
    /// An EC key, an encryption key, an RS512 key, a 1024-bit key, a broken key, and `k1` with no `use` or `alg`.
    static let jwksMixed = """
        {"keys":[{"kty":"EC","kid":"ec1","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y"\
        :"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"},{"kty":"RSA","use":"enc","kid":"enc1","n":"zRkEdRyFI\
        38oJPd--9fW_P1H0S_6t835FlBIIIj7rVOU1rxFzz9fmjD46J8v7Um-PmBl1kziknWQdrKBB8tZoaQly0AZcgMgXiBObp95lcxzQ\
        ME5S_cYIbEAmmrpQkqUgdL6L5sEgeW181M6e3zd6nE4RTLfFOCCjNZSFOdydz6Axfcpd4-1pN2jjySe9WTCbA2HJtaG8lEtr9Bn_\
        xBo0F3qtogh9y_iGxATRFXYhFHskxD81_vYDdR-9kuZe62xEw-9wUEV-9Nte6qj59fiw_UGkVN2AzLo48JbdkpyjBNlJD0Cm-7Er\
        RlxrF0jjPjZOegZJpc4NfGz0BQ7jf0Arw","e":"AQAB"},{"kty":"RSA","alg":"RS512","kid":"rs512","n":"zRkEdRy\
        FI38oJPd--9fW_P1H0S_6t835FlBIIIj7rVOU1rxFzz9fmjD46J8v7Um-PmBl1kziknWQdrKBB8tZoaQly0AZcgMgXiBObp95lcx\
        zQME5S_cYIbEAmmrpQkqUgdL6L5sEgeW181M6e3zd6nE4RTLfFOCCjNZSFOdydz6Axfcpd4-1pN2jjySe9WTCbA2HJtaG8lEtr9B\
        n_xBo0F3qtogh9y_iGxATRFXYhFHskxD81_vYDdR-9kuZe62xEw-9wUEV-9Nte6qj59fiw_UGkVN2AzLo48JbdkpyjBNlJD0Cm-7\
        ErRlxrF0jjPjZOegZJpc4NfGz0BQ7jf0Arw","e":"AQAB"},{"kty":"RSA","kid":"weak","n":"ojEfUEq4fHHx-qQUcbWm\
        kNmME262TXliaUW5nMvZ1yXhZ6iI79WiMORoIA5g9fBJTru-ZXvtftO4oVPvsVy_ZsQiQvVqXYrl4oSRX3Hze3lX8E08f4mY4aKE\
        2dY1DD4_qh4WYGx5IWOuKrEmFBvv8enOg0R6A03nvjwp_CMh6sk","e":"AQAB"},{"kty":"RSA","kid":"broken","n":"!!\
        ","e":"AQAB"},{"kty":"RSA","kid":"k1","n":"vvYARt1AfyQ5WW3EkiejBmXiYHPQA65kWiF_ZAMjUoMV_5s9HYZBzQs5X\
        -y53WukrCrKW5vfnKlFQp_mD3CBaY8D59tZ84_Dr33I4jUltGRT243ko4iU9w4UQjqp5OKPGiYrhze0UpTLmZVR4HWNND5KUSwhw\
        vE6pSb9mutoWNLC_LKJV7yCnm-KAMMv341076WXloPhn9ahc9K2MPPjVrGJ9lYq5yoHCrSdI4OwmXd9lTUfmv3eMXjQuG1lC_X2g\
        -lcyrEjfMGyw9Y59lU7S4s1DHW_Jq2djvUVG3Ita1KVXyN53uk6gRmQ3irRZmjrYxDBUppM_MVpLOMvZmyrNw","e":"AQAB"}]}
        """
    /// A set whose only key is 1024 bits.
    static let jwksWeakOnly = """
        {"keys":[{"kty":"RSA","use":"sig","alg":"RS256","kid":"weak","n":"ojEfUEq4fHHx-qQUcbWmkNmME262TXliaU\
        W5nMvZ1yXhZ6iI79WiMORoIA5g9fBJTru-ZXvtftO4oVPvsVy_ZsQiQvVqXYrl4oSRX3Hze3lX8E08f4mY4aKE2dY1DD4_qh4WYG\
        x5IWOuKrEmFBvv8enOg0R6A03nvjwp_CMh6sk","e":"AQAB"}]}
        """
    /// Signed by key `k1`: iss, aud `client-123`, sub `user-42`, iat and nbf 100 s before ``now``, exp an hour after.
    static let valid = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUw\
        MDAzNjAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.dimrzjyE1dj8srWdoWgoGYeA2k6TuT-0J0APzvcBWcaRFztmO3zbCfmbz\
        hRRTzvIKHTNbekD738FiObzGVFvXVzmKcgbU2tFhNmJa7k7oj3No5bBtaP6Wk1CdhRdluMLZKV7rWajP-JRFbGTzsuFokb4UQvqK\
        zVTEzIzozLwegJ_qU1QadJSH_ziGRnK6rkap6BvkloxakGf8hXrxDhp8r54UlbtqRCAy9SUh_rhWrysmf9nlJtFwECagp8zjNNAz\
        vGVAeLuZl3NR7moktHw6Kl4ge7uH3fZePrOo3V8jV53kY6WO3Zi65p6ODh2g4BvGDXyF8ZvOjAysdXWxvVphg
        """
    /// Like ``valid`` but with no `kid` in the header.
    static let noKid = """
        eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVkIjoiY2xpZW50LTEyMyIsInN1YiI6InV\
        zZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUwMDAzNjAwLCJlbWFpbCI6InVAZXhhbXB\
        sZS5jb20ifQ.bHQ6m-fg4aVP20rOqzAPLxEvRcd1fSkQRifyCewLI7eePIhDbzF9QLUyzsTE4IsSHTcrGigXHFZG5Qnc9Pm_0Rp_\
        NYcHs9s0JG2lcYkFs4K4Eg21f7_ZIEPs6cx-CPLBQWVAmhUQJ84rUP3KMwpUMzuRgEwnDFbBIqzdAtEBGtTevB6Zyc8bc9O0qnNf\
        -96pPdLn3HcApg47itqKfK8UTc9nVB0wycYYM2EeqpS8j6vS7avoecVpHLDmqqWfrGZsYQobgj_QmytqQL0DHwqsQLC41cgRhhFS\
        r-9MgQmm_LIfuzk-XJP_HMAKvdnKft1fiDCPCOMMHfspaJd4lJfRfg
        """
    /// Like ``valid`` but expiring 30 days after ``now``.
    static let longLived = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUy\
        NTkyMDAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.TlP7Cvo0vakUcIezgVfKKBYagonQFtd-JO-sPf0h7J953JDz1LVm2Kfos\
        Yd5wuFPr8pGCLwzXmx1xe1chETQodn2703DqtMhx816ofPlxSYmUvk34X3VokKaAwj4Uq8kkHRJb5I9UcSEiLcjO--yrl42MWt_Z\
        _VWogFAfVKueE_v35o_EwYS6fpK78PM9LAkGraxRSN_qjWu2tj9dnUa6XzzqlouVB3ugz_u5iVdxdZh_LuTHI6px-SSs8hGzV-1N\
        39bkYKpMR6laETLkNwcxmtLUBUDLQsHK73grjSFEchsnpmFfrbQvOF_9kW5W2K63mNxmfzg5HRwQC4_Sp2anw
        """
    /// Like ``valid`` but for sub `user-7`.
    static let otherMembers = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNyIsImlhdCI6MTc0OTk5OTkwMCwibmJmIjoxNzQ5OTk5OTAwLCJleHAiOjE3NTAw\
        MDM2MDAsImVtYWlsIjoidUBleGFtcGxlLmNvbSJ9.al6zIJfPLajx49kLq1s3uvLkwIa3XSa1JKIcpgNSaYwOoudrJVBr1G9wgLP\
        zRVmcsKkCTRt74m6o_22_v_OukhpJ5O7XckHoVecekRwsr-UvcMYwCsK5_ebp3qUmErg_RzsdWd2ghZ0JUru0usJSDz8DpnJ8VaD\
        i67Rmyjy-0jtppIatIetzXGzqUdhfruCSFlDS20zKzjYkGVsh65HxOc_LQ90_01IunylnyZ07FgW1juf83--XvnLd-4W5vXVMRlZ\
        37kur-NQi4FX45Zh9gWb4AcW3dCymdwUtViDBlU8KB7y4xlel8y_hcjPThRSwp5en0uHHYKdLwrmnvbuHzw
        """
    /// Expired 120 s before ``now``: beyond the 60 s leeway.
    static let expired = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTI4MDAsIm5iZiI6MTc0OTk5MjgwMCwiZXhwIjoxNzQ5\
        OTk5ODgwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.d_5XVBDqMq8wQ6xAZSZwjd8V0tUCZxdO4juV2-ErZzP4RTey0tb6wGjLO\
        1L1JsYS1XDKV8a96Q62aIu2nUuexZf05wBrhwaFJkFAv7euXk_yVBTxfQKwA0uwzsd56luQeDj-JRLeakBGiUJ-tDFnMNQuE1lE6\
        rvGFRQT23ZwQv9JZXpQ_lAGFKiGuPTQnC4TEgHm8y09p4m1jGzsXLZ44tKhEaTqHYpMKuz7hJoIlp3mm4JF9ogBVBbwnOJFjG7BF\
        2SI-F0R_tk_rbXKBvxP9IJCUVaYcxkoH7twMb-UsxgGdbaBsDZwk7TbYe0jgiN2w40jwNVJk8zmANLv2GZKHw
        """
    /// Expired 30 s before ``now``: within the leeway.
    static let expiredWithinLeeway = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTY0MDAsIm5iZiI6MTc0OTk5NjQwMCwiZXhwIjoxNzQ5\
        OTk5OTcwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.gNAN2V8J0T3wPwvkkrX9Qzerr0T-CWiqS3YnuwMlnKmajmdD82_ZpOmhF\
        HK83u56ApNBVSy3XCChLhvvXWISxqhwVi30RGCwvjBBtK5ZIbm30mH7Q4-h4jXHp50Ai2dsn8zLGY8PJqClOPug_pCaNFFzEQ2t0\
        XMkmJTlF1f3jWU_fCQm81GKubTrGIA8nxEVKzgd5rGbz1uSvWbeJZkAJWBdXyR67dOVC2tLEB_MAIl6VZ5M5UmtYRVHsNtojLY8X\
        l4rgy7peG32X_7_5wRIXky8AhQ-4Ov7d772Iz7HpnQJrOOvzzB4m8tXlED00qqXprCjVDUJd3K_K7QnSojaAw
        """
    /// nbf 300 s after ``now``.
    static let notYetValid = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc1MDAwMDMwMCwiZXhwIjoxNzUw\
        MDAzNjAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.fDlAXFClmE7w-mtlPvyE6A9zHobvYpnsYBNdWIoY0kay__2jWLSLAN3oQ\
        pOkF-1OsVy4irz3p_WOPIf1kciU9YtaKxBxvzYTaf8XGseAih1BTyhtHirtbIe3h40MNFPa3pLmG0IewN85rFFOhLfjeLIvZ7wVm\
        a3OU35zv4WNMOWJBvSPGaM7IKlHBidlx6EdcObnIMBMnakvOTLAtWoMqtqusyRZ5DorWihjfns-JtUh0r9do2lLqAKNOk84Sjbnd\
        SqmJOP1t_XBrawrgAedV-ebYVrJy2Ril9JyM7EK852cJaUSdTF2Y8PHT_bd45YMR7pR5S_YPEcvmt1VYcmv4w
        """
    /// iat 300 s after ``now``, no nbf.
    static let issuedInFuture = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NTAwMDAzMDAsImV4cCI6MTc1MDAwMzYwMCwiZW1haWwiOiJ1\
        QGV4YW1wbGUuY29tIn0.Q9RHbQNBj9ODrkk1bnDkssEumZ4sgU5TMw085Gxl1zVtoLA_Ux-1cxbu6rtSidX7MGmK8JeRTz3p1isG\
        Nr3HFi5unU9wVucF0VQbV_qt5OU4eakpnVhO7dbMtAjaMFuP-kMwnt3bugkABoy0bPbZiISv6jrM33KwhOXshcFujEJ5J6GqCKBr\
        a4b0VMhfe2p0JmgvXLU19EkvyxajAbcI1ZisxmKoLuD_FyCvgCbCsROCkRow4fGRmIBZ_UhvHPmQFkuFjCO2PQHJI1aCS0FzF05y\
        YkoI5Ynp_jpOdN0XgQGtnFTiov3efQqql3bdDP8S9Q1M273ex6Mw1OjeymgEfQ
        """
    /// iss `https://evil.example.com`.
    static let wrongIssuer = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2V2aWwuZXhhbXBsZS5jb20iLCJh\
        dWQiOiJjbGllbnQtMTIzIiwic3ViIjoidXNlci00MiIsImlhdCI6MTc0OTk5OTkwMCwibmJmIjoxNzQ5OTk5OTAwLCJleHAiOjE3\
        NTAwMDM2MDAsImVtYWlsIjoidUBleGFtcGxlLmNvbSJ9.TVUMgrMVtDHn_NVoD-epTpjxCt2zwFHciZhi-Hd1L_F0IZwyMU04H-0\
        XploaleF_euez6vgCv5zAhCo1_M8uJoIJ3gJqCFQJxB_UJApfFIWU-SW7A4j_hvDeMAfO2MqjEZb6aEppVc-gJbYAXHk1rnEf784\
        2WUiIrGJV1o_31d07DoEH7pFm7IvGZ74acLmsQpfkrp72qH7wb28A8oyx-gxaVwcRzXfrrcy2cZV_jror2qjYLP6rT6YWPh3EbG_\
        Kn-P9DUdSHJyi5ly2VQGEDN-aONiOFTcbU6slQaD6kMPRDZv8jhKruhr3pqRdB_xzjmGfo4rZkqrGJxMhtKYXLw
        """
    /// aud `other-client`.
    static let wrongAudience = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        Ijoib3RoZXItY2xpZW50Iiwic3ViIjoidXNlci00MiIsImlhdCI6MTc0OTk5OTkwMCwibmJmIjoxNzQ5OTk5OTAwLCJleHAiOjE3\
        NTAwMDM2MDAsImVtYWlsIjoidUBleGFtcGxlLmNvbSJ9.VXDtOyqAL4qTe9NR5L0sz5nxW74w4_Lm1qOpIKeANh_wzIBvGua-8Mm\
        CkjdbEDyBw8ybVSnc98ZiVGfzPGnYFO1n-VbbVuE2zOLW_AgQJHb8lUjpdrHO_ityExwZ8dIuYS0NyIQtRFJD2Mg-fEoruhhvhqS\
        g3pufmtrWooGjwK2AwbLbwhMOzaAa06Auq2hGkYYXj_JxExrCkuZ77Us1gCQtcg6PR2nGvRHXTXx0sApBizwgwFR7J9puBh7MlVK\
        9T6Vzct97z8oupV0XHzMkWJ6WeFPgnfaNrt9BOW8AH2rB0WQxIv1gchb29okRSNRe1_5QXEqRIJZ1gnWlk5MTLw
        """
    /// aud `["other-client", "client-123"]`.
    static let audienceArray = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjpbIm90aGVyLWNsaWVudCIsImNsaWVudC0xMjMiXSwic3ViIjoidXNlci00MiIsImlhdCI6MTc0OTk5OTkwMCwibmJmIjoxNzQ5\
        OTk5OTAwLCJleHAiOjE3NTAwMDM2MDAsImVtYWlsIjoidUBleGFtcGxlLmNvbSJ9.bpMt5Xv-wUc4OQ8UDI5Tm4EImgFUD6u3C3p\
        CU0OXNg0vG7pYvbvJUNwBSUeE83bvkKmnQRtjWgVMGKCH2nRWuFbOPYl3MleXRYWu6cvTcFGQexhT0t6dceHqoXEHiDHT9-AWkNC\
        o97dKI1pfrxkSt0GQ0lDhPVvtmoeP3_-ohjeFNntauC7e_wbVe15TwVUZw9ldfg1z4HjhGRHUiW25BMWZmdgxPwiaTp-q1LrWWSI\
        9VBCJ645JFsMHDYbWRXFDgVuiOtGahGx5Wu3uW9f4qtGCBtdS6OxUgaLoNJtSUxftkGAPRgiMsMNAPTwGqGz-1FRSOJORtvduDgk\
        xSXlxcw
        """
    /// aud `["other-client", "third"]`.
    static let audienceArrayWrong = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjpbIm90aGVyLWNsaWVudCIsInRoaXJkIl0sInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkw\
        MCwiZXhwIjoxNzUwMDAzNjAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.ExaFckcTzgL8DyRAGux0UwVhKOa5qn5-1rKgqta8y\
        jOVA-3vMxjo-NMdwqxd5AdwtEjCMkb63zF6kMIqgOBnhCtSApShTOcXwUOz0rbpNopuDkjn8VjYa6T59TpHRpf5c1tXiqJzfTmbR\
        CXAqIC8KuS-WhrN-lQMIeIL-d3R2EtluKbi_gr2rYxKHBzYycZJSDyTRcTo3H_SriB6DnwbwTAfDvTbBaLy7mu9Ya8lrKxRcT-Uu\
        isPgHV7PhJi_Tf93i_mgIDkSGu7m3tfUyHwT2yBLQ3DMFCInVgJRSLahKTU0XWzud7aTXkK0RgdbKiqzjqMmXe-d4oTA50e7t6Ud\
        Q
        """
    /// No sub.
    static let missingSub = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsImlhdCI6MTc0OTk5OTkwMCwibmJmIjoxNzQ5OTk5OTAwLCJleHAiOjE3NTAwMDM2MDAsImVtYWlsIjoi\
        dUBleGFtcGxlLmNvbSJ9.BHJK80G-IQK7mdiJ6Yq8NDI5iIje9JPp9zA4J6GXN2iGklFg9LqqN_SkFyYo1_TP_5HPrmgdPG6_fRQ\
        _zPuhVDcl_pUYT48SlCobZ0bvZN2htYGkHvrDMq1mGr_jodGfnFWHEbxejjfUZK490dGi_tSE-9uMqdruJUANGRBv_D5xI5ct6u3\
        ob87a83JaHCnXk0rLPQxgyzQgHxxxKaC2_V-C7GyIM-5QRmMUnFPKBAu4TlqBuiWjT7mV0PP1KOcdx6TLlpPEWuGXRfSyWKTW4mZ\
        fhux7uVNpDUQEkGBFyDxdwCmEgFz6A1-vFWQH1m1kL2SiMMC5u_-dN3HxAbvctQ
        """
    /// sub is empty.
    static let emptySub = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6IiIsImlhdCI6MTc0OTk5OTkwMCwibmJmIjoxNzQ5OTk5OTAwLCJleHAiOjE3NTAwMDM2MDAs\
        ImVtYWlsIjoidUBleGFtcGxlLmNvbSJ9.GJL_XmcAQrm3jV1D-X2KsINd6OK323UYlA89RJqQwktNjBV3KlSTo0MejdTqwUru-Ss\
        oDYyCeDyEST4C1VOQpLCTe2eS-nYCB64Uq2XUSng7pO_dNqZirV6r02PRhygsXUHBHC9t2bSlSIZaCQDOmHOmY6rInSy8vE--N-L\
        mZ1nHKJpOu10TZLo2ve6jVnrcPGf-JW5qYIWuYNXSyE274zuJ9rIKpfMP3ynuiTxiCbEWvcu595ntLvQ6QIxeu_9iXOk1ZLAi5YM\
        100L8ozmeXg8AO430UpoPDEecG4FW4buDsDqJ9ycGh-AuP10VJHvYR-uboLfwLmLw7mz57HAWGw
        """
    /// No exp.
    static let missingExp = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZW1haWwiOiJ1\
        QGV4YW1wbGUuY29tIn0.R7vtH_coMXbe0W4G_hZs-YV5QqXj50XSBxPYSmctLfq9KUOLjpLG3-rxXUXH9e2xA66kq5Mlj5zJvfHy\
        MsnPJlMaO9ASKH5hN8_LwdoflH46tDfwoaj9R9FJt-UcaYj65e49XhI8uFWPA21iazeRs6fBb9HWDcrkM2o8Ks4mwNPBDQ4wdyfT\
        wPKQseGFVEQ97ZQtJv8Zb_lEzjslNudnWmGxGquUj2xJU5vACrAB_C9uyo_8WxzyfvuQx0ckJgnoGakLOT3zSP6Rgn7LuzG_XHLF\
        EcRv7cGmQaHOvOopEBMVXOzD7raaN5YAi-d4yzEjhvE8evYqwuuo_UbAcAYgEQ
        """
    /// exp is a string of digits.
    static let stringExp = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoiMTc1\
        MDAwMzYwMCIsImVtYWlsIjoidUBleGFtcGxlLmNvbSJ9.iB9pVSJnJ3m_DvkSfFbQnvu_5jiVUnJiaPB8duQrcrskT-jEgzIABYR\
        2JS1GHYExR5zBvhiZqqqKxEQWhxDxKJ0oQwZ7tDORyNGAMM9uFh_e4KBVykARQxbrwOG6iO-sYOVt-rubR8f4SjiZX0-GP91Q5Bn\
        FZWU8ZDIenDoICSiMXZpBl0R0X9nMb4xfHvby-R3TALyRaVC6blMULlM7DfNxuhRywAvbGGiSn4Qgw-WOX0IO9iInJjubUDwLFGD\
        XmShuYXmdMGnBDM_HDkLMhvcNwvISokVugmJPCLsa7OJ5BfemucqL2Vfe5VUwdfOYjbaHK5llMB09AGp2KxH09g
        """
    /// exp is 10^30, a number no Int64 holds.
    static let hugeExp = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxMDAw\
        MDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.ZSkfXhXrNASJfdZQYw6oq928BDIZD\
        vyHTjgyT10u4LG5Tz4ZaBiyn3wrIME1DhIJpi4kIK7qe6AfXEFItzjZgvr8tU4wBQTdgyJ0qmaLMN5sWUV0Hfx2Q8y6b6AcO6N-i\
        a1RRBc_HzHdmg6VidNQ9CijxMeXc84zuCeEUHz_8JgIwqcNIugDR1oxKVw7DW5kggwDCp15ihd916EDwH2a7UJpKwx4Yq86-Odmh\
        OYd_YxG2r3k-uXwej_QFUJUcN9YU_rEKqqlHJzcBa7qqRX8ol78gPPyZCIgMGcEU5eBGUs5K8bhF6R_czFHMopgUmKvXy-GBpjVe\
        8ssW-sprGkXkg
        """
    /// Signed by key `k2`, named `k2`.
    static let signedByK2 = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsyIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUw\
        MDAzNjAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.G8rh0sVCG21ujC4TXJLumqwX_xZMZAnRDSgUYnTbw5fz7ZLlf1ldbH_Rv\
        djbfHWZPCMR5l055w3teXo-KOVFRWcyjXFBXEbOhZ1hUxLHrhvmVmXaiblmEAGpmWT0OSn_wqbshHwTC7OYYc2IsVb8jkB2_41mY\
        BpKOkUkck89MaL2x66FmUh5UC56VZSQOfnQL1Rp-r7wIdX5gU14AkGBw4TT6g9ZhgyLYXSqCGq2UK3GUQ9yrAt_5at0pO6sLH3Nq\
        qupbYBMao36zq3-JvhVDUlefGRSESKWrwBtiDastLt2XMIEKQhThLHUsMZLJki1pNnJOl8uKtRVBmSrF-uurA
        """
    /// Signed by key `k2` but naming `k1`.
    static let k2UnderK1Kid = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUw\
        MDAzNjAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.EBSj9b1St0hTizNjF8mVgkxOaix_DxE7Yu2n3cSrG_mAvQx3pd8x_shmc\
        kngo0a__B9I18ZGRRbWGND4B3rMdOgBF7TBA6wnYePo2fqzdELImraTYt_eKJlIMbaBzUnS5fYbm08cHrdjpC-m3O5FSJ5InKP9h\
        JQnIQf_-FQuidJ7B_gDZJYTK0hXzD1rp5uqRse13wFtr2lkaSLka01SLBUmPIc20jmka5QghPngCfDK0g49zW3myziVIJu5anIrx\
        Sd0VIbGXLz9jXhuPxuENqg91fbFer90ngcM7EQUEJYqrCfEb_RSVi4-Ymcexluif9MrMWEZjzgphlqfWhFweQ
        """
    /// Signed by `k1` with a `crit` header member.
    static let crit = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwiY3JpdCI6WyJleHAiXX0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwi\
        YXVkIjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjox\
        NzUwMDAzNjAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.jJa5BMgk-3uesK0Apb1matvu9-vPUDmMNaKkrFpbYKFMtoa8dFUmE\
        lEb74x5wZsDgcg-ZisA8oUkKvEQjahhVhP-HMmeDmmjfVyBYQUAyW5AlcbR4RL05qWvyxzY0alNWn7FRLtS8qOuiquhG5x7HJ51M\
        Qyy0lBt6Y-5oeLVWVPFuuX1WzpylrRn6IOrmNJuc4L6UfLhN0alLjVw3tFISSE4arSLhPjdEjBzWA5I3iZP4DH0xkaUuTh_iI7ib\
        n5YN6UoDW502IFGLeEar9J1_EkmdYC_SQz3g00VuxgJvWSBTEgeB3K7gxGAOfthZx3QQco8bSE6aveb-bUB-lRtDw
        """
    /// `alg: none` and an empty signature.
    static let algNone = """
        eyJhbGciOiJub25lIiwia2lkIjoiazEifQ.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVkIjoiY2xpZW50LTEyM\
        yIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUwMDAzNjAwLCJlbWFpb\
        CI6InVAZXhhbXBsZS5jb20ifQ.
        """
    /// `alg: HS256`, keyed with `k1`'s public PEM (the algorithm-confusion attack).
    static let algHS256 = """
        eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVkIjoiY2xpZW50LTEy\
        MyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUwMDAzNjAwLCJlbWFp\
        bCI6InVAZXhhbXBsZS5jb20ifQ.1XU2qoVNwh99AKUQuKwebGzmsu3sSlCCsWZ8DuprWho
        """
    /// `alg: RS512`, validly signed by `k1` with SHA-512.
    static let algRS512 = """
        eyJhbGciOiJSUzUxMiIsImtpZCI6ImsxIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVkIjoiY2xpZW50LTEy\
        MyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUwMDAzNjAwLCJlbWFp\
        bCI6InVAZXhhbXBsZS5jb20ifQ.k4tLuXkb_yX9a_1EwPk5bdx0y0-uHhhep7bbgQK0jEK3HY9n8lf2bqLVorTzGeDVruRrCXNXM\
        h9hALF6PT9uV0opz5vSUxs0vgH9vrXyqtC-4w26LJDmrv9bKN-ex0X6SRJwgRhojsuKSjoIEtzuzXdCl0VR3cxvEPVlSYEBVDY4v\
        pf7dEYL1tW2s2Q2IXue3EOm3PIeEqZbp_1ndUsnSmN9p4Vm9bkcPsVIklH_HaKbR_PCCeMWjX0Wn9AqNj9rFZR0Bo2XwVSJtY15t\
        BpkHaLvojd8jH9sN_hME-oKTebrQyq8PrVq4COJgYaJzB32f1PGepvyyVVYjZ_qMX006Q
        """
    /// ``valid``'s header and signature around a payload saying sub `admin`.
    static let tamperedPayload = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6ImFkbWluIiwiaWF0IjoxNzQ5OTk5OTAwLCJuYmYiOjE3NDk5OTk5MDAsImV4cCI6MTc1MDAw\
        MzYwMCwiZW1haWwiOiJ1QGV4YW1wbGUuY29tIn0.dimrzjyE1dj8srWdoWgoGYeA2k6TuT-0J0APzvcBWcaRFztmO3zbCfmbzhRR\
        TzvIKHTNbekD738FiObzGVFvXVzmKcgbU2tFhNmJa7k7oj3No5bBtaP6Wk1CdhRdluMLZKV7rWajP-JRFbGTzsuFokb4UQvqKzVT\
        EzIzozLwegJ_qU1QadJSH_ziGRnK6rkap6BvkloxakGf8hXrxDhp8r54UlbtqRCAy9SUh_rhWrysmf9nlJtFwECagp8zjNNAzvGV\
        AeLuZl3NR7moktHw6Kl4ge7uH3fZePrOo3V8jV53kY6WO3Zi65p6ODh2g4BvGDXyF8ZvOjAysdXWxvVphg
        """
    /// ``valid`` with one bit of its signature flipped.
    static let badSignature = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUw\
        MDAzNjAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.dimrzjyE1dj8srSdoWgoGYeA2k6TuT-0J0APzvcBWcaRFztmO3zbCfmbz\
        hRRTzvIKHTNbekD738FiObzGVFvXVzmKcgbU2tFhNmJa7k7oj3No5bBtaP6Wk1CdhRdluMLZKV7rWajP-JRFbGTzsuFokb4UQvqK\
        zVTEzIzozLwegJ_qU1QadJSH_ziGRnK6rkap6BvkloxakGf8hXrxDhp8r54UlbtqRCAy9SUh_rhWrysmf9nlJtFwECagp8zjNNAz\
        vGVAeLuZl3NR7moktHw6Kl4ge7uH3fZePrOo3V8jV53kY6WO3Zi65p6ODh2g4BvGDXyF8ZvOjAysdXWxvVphg
        """
    /// ``valid`` with its signature one byte short.
    static let truncatedSignature = """
        eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2lkLmV4YW1wbGUuY29tIiwiYXVk\
        IjoiY2xpZW50LTEyMyIsInN1YiI6InVzZXItNDIiLCJpYXQiOjE3NDk5OTk5MDAsIm5iZiI6MTc0OTk5OTkwMCwiZXhwIjoxNzUw\
        MDAzNjAwLCJlbWFpbCI6InVAZXhhbXBsZS5jb20ifQ.dimrzjyE1dj8srSdoWgoGYeA2k6TuT-0J0APzvcBWcaRFztmO3zbCfmbz\
        hRRTzvIKHTNbekD738FiObzGVFvXVzmKcgbU2tFhNmJa7k7oj3No5bBtaP6Wk1CdhRdluMLZKV7rWajP-JRFbGTzsuFokb4UQvqK\
        zVTEzIzozLwegJ_qU1QadJSH_ziGRnK6rkap6BvkloxakGf8hXrxDhp8r54UlbtqRCAy9SUh_rhWrysmf9nlJtFwECagp8zjNNAz\
        vGVAeLuZl3NR7moktHw6Kl4ge7uH3fZePrOo3V8jV53kY6WO3Zi65p6ODh2g4BvGDXyF8ZvOjAysdXWxvVp
        """
}
