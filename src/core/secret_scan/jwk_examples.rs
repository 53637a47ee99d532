//! The private members of the example keys the JOSE RFCs publish (RFC
//! 7515, 7516, 7517, 7518, 7520 and 8037), by SHA-256 digest: keys every JOSE
//! library's tests and documentation copy, and no one's secret since the
//! RFC printed them. [`super::jwk`] passes a private member whose value is
//! one of them; any other private JWK is found as before. The digests
//! were taken from the values as jwcrypto 1.6.1 copies them in its tests
//! (`jwcrypto/tests.py`, `jwcrypto/tests-cookbook.py`, each under a
//! comment naming the RFC and its appendix or section), and the RFC 7520
//! and 8037 ones checked against PyJWT 2.15.1's `tests/keys/jwk_*.json`
//! and python-jose 3.5.0's `tests/rfc/test_rfc7520.py`, which hold the
//! same values. Keys those suites made themselves (their secp256k1,
//! Brainpool and Ed448 keys) are not listed: they are found. Round
//! fifteen added RFC 7518's Appendix C key (see its comment).

use sha2::{Digest, Sha256};

/// Lowercase hex SHA-256 of each published private member's value, by
/// the key it belongs to.
const PUBLISHED: &[&str] = &[
    // RFC 7517, Appendix A.2: the EC P-256 key (kid "1").
    "a45404ae333dd955dcff82cf28972e0f81b1e673cb70e2fc2d7d0d4c42a893bc", // d
    // RFC 7517, Appendix A.2: the RSA key (kid "2011-04-29").
    "2e4ff57e9c832edab47dcc5a7ba5ef544a7c42b526248e088a8ae374d3c19677", // d
    "1af39757f13b6f66c0d3ad4051994eeadc1d7aeb3a628c322f4392a934a90243", // p
    "f6a52e213060903eec75342ad98bb9ecf647e1fa4ced86e8f4d72243b69255af", // q
    "4575c945c868f35df50adc1da130edeade46e34496728fe823e03eea709cf4b2", // dp
    "5748e7050ebb3bfa4f27e7a7f0194c098991661b5af3bb34b12a4c8e2e2420a0", // dq
    "7f942c45bba4a16d20c4e3c1563201b9f9563ec768b4c707b62dbb4d14eb6ac7", // qi
    // RFC 7517, Appendix A.3 (and RFC 7516, Appendix A.3): the AES key wrap key.
    "57afc11665beb68de7ccd6df1b38453be8682ac63bb8ccdf67cce63c2db9afd2", // k
    // RFC 7517, Appendix A.3 (and RFC 7515, Appendix A.1): the HMAC key.
    "8b1b17a9740c068accab5c3d0d652c8e3cc13206e70bb73b42ea41d4c2de3c12", // k
    // RFC 7517, Appendix C.1: the RSA key (kid "juliet@capulet.lit").
    "deeda324b508f83b25fa926ca22c040924ab6e85450e1cfe7133596d8b600b7f", // d
    "f380680713cf687e43f1fca51f4b220851c8862091c77e3f8f8e17b7b18b1a8d", // p
    "cf42db4b0f78a199a9fe07b428f25e84bac8b3f1f62d50a6dfcfbfebd8247d77", // q
    "420ee15d7ac6c5126fc2679c44e0b204a6f8dc736af4b7eb0588c013d02b0d6e", // dp
    "94724d9f3756f8e7ce06a7ca68eb1aea1b43afac5073b26ea09b3ef190bae9d6", // dq
    "34ec5229bbaf1dcecc2d34e7c2458d01e91ed8a5d6c90a1bf700ab136e279289", // qi
    // RFC 8037, Appendix A.1: the Ed25519 key.
    "190edf59d5736c3b3ea6bb36d57f5eb415a9b79f3201b381b8f3cb089135981f", // d
    // RFC 7515, Appendix A.2: the RSA key.
    "ecaa6793a6374193dea5b273e7948faf02afef87add8f5aa2dd46fbbb2749a85", // d
    "62948d8334f34cb8b22c18654efcedd39daad2e0535850fbcf21dc4a7218f917", // p
    "a6c9c8a4ab8279ba5831f2ea0660a677d8ce78fda4bd65cc0b1a862a3e1fbc5c", // q
    "d148e0d7248b1c922718e75b5e527edb0443f1d64b0e11c191052cb520a47d50", // dp
    "0628318fc9e4401bb0ba41a052f0b42d427e3c4d29c42b4a2ede067793467eda", // dq
    "25935e9463b9d1dd2c78066ee7570e6aa2af2fff24f9e8c36f6d68ae9866bf94", // qi
    // RFC 7515, Appendix A.3: the EC P-256 key.
    "5ccf2edb4f070f0b180f1adadb1be7c568d04181e7938433c4503db2d2bf8b3e", // d
    // RFC 7515, Appendix A.4: the EC P-521 key.
    "f8123081a22e5c009615a2458e0cdf1553d2238af9a04fa23cabb83502d4176f", // d
    // RFC 7516, Appendix A.1: the RSA-OAEP key.
    "dd663fe0ef531be224afc34d3a869b26a90de29070533c7a23f5a04f6b3b07d4", // d
    "f1e36a582b678af9e08cb5d539d2607c9ccfd0db2217d35add3a0104091cb945", // p
    "bdf011ba80f3a8fa6df0fa5915a5a950a1cbe48c6fd889e9369bd2f0cc6054cc", // q
    "733da9569eba7c6585d8c0a335de5f026a0ed28736cef1e99409f4782a39e375", // dp
    "ee133d4266dd444be132e14ed1adb35752b5b7871b6133dbf7b503a6bd0b7697", // dq
    "7fa8589bb9aff19b0c63966b2d6411ca466504e1dcb4aa74e5fb7e23fc1aca02", // qi
    // RFC 7516, Appendix A.2: the RSA1_5 key.
    "f05bc60099e0ea1ae228110ca033fe4824e3ac885b23ec77e99e22346e667341", // d
    "09facff5280a0fc2f4c08c07e23e7522b02c2d7d21e822e851f72c57d4c280b9", // p
    "4ca1d37f3c4a3204b574bd01f2dc665dbb33b50a984f0d44499f627cc1650296", // q
    "19979ba542b9b8bbc16bd303d608022470e057a229ea6a9463598b1d5db5be2f", // dp
    "a2bc9685325577dfd8b6e1adf5c52437562fec8bcdeb619e64ef9ef51cdcb975", // dq
    "d31ef7d1c1a8792e809431643db03b447f09c62a575ef30091dbc185f1244108", // qi
    // RFC 7520, Section 3.2: the EC P-521 key (kid "bilbo.baggins@hobbiton.example").
    "243cd6766dfc55feb19c57a662e8e712c0a37e6c44a00467255e0b4ac21182b7", // d
    // RFC 7520, Section 3.4: the RSA key (kid "bilbo.baggins@hobbiton.example").
    "92a7d7ea52e43e7051a891902253e914208d166249aa7cda741739912c59de61", // d
    "4e8bbaed409fda3e40840fb01948549af8752489d1cc675f872e0d9c3a1561d7", // p
    "508281b4bacaa8c1436387d5816d6f603f54dbe507692dd66c980295a905fc01", // q
    "9ee7ffb5347b07263a777f7fcb6c114f88a265a2cf539d79adaff9c49728effb", // dp
    "1be3b3754ef5c655db80405d097782b56b5cd987c4647fc209f82ae423fcfb0b", // dq
    "7df3f9779b45de94e46f1418f6ac634c050761de257faf3115f4bf1eeac9680f", // qi
    // RFC 7520, Section 3.5: the HMAC key (kid "018c0ae5-…").
    "0330b11998cbc9abd5a585e755cb5df2f73f1a5632fdcc2abb19e05e3eceddb9", // k
    // RFC 7520, Section 3.6: the AES key (kid "1e571774-…").
    "8f0d5d5f8ad386f971ee420446d9908516ab243d8c81b24c1b519c00f66d237f", // k
    // RFC 7520, Section 5.1.1: the RSA key (kid "frodo.baggins@hobbiton.example").
    "e0fa8ed1bbd209fd0d266a04bddebfaa46b4b7ab623dc326aad3ebc2570ac983", // d
    "f7df7e361f2f822036a954c615ab5aeeeb0b6fe793e363e77be1c7e186dec7cc", // p
    "1b93ef22d28d55fcc8a1428da242e5c96a76d89bed7d100b715874708efda61e", // q
    "9ba2d3338487b83ab7b0d174ef6ce23c22078284f082d2bde2795aaae4fd84d9", // dp
    "332b9f2c4a94be324803f48d374dbfd9b2efa5fcb00a66205356441a529e3b1d", // dq
    "7570d89cea87589a3653d0213b8785e6f70dabc72237e8c1aec28d963b96c3e5", // qi
    // RFC 7520, Section 5.2.1: the RSA key (kid "samwise.gamgee@hobbiton.example").
    "2677a14a465f8bf0f2f2f372f5870a097a4d13814aa68868e0467b27b3c641cf", // d
    "3489013d059f34985a742afbc6eef0cb4a99badc92bfa52830b6d96639c2a8f9", // p
    "23613c7beec20ed84f1da3ad3f4845d0140889094bd9a56c455ff49d53aa6b3e", // q
    "e67a050e0a30815dd9f04f0562d3dd3b29bd43abcd3e89febd950bf043f14281", // dp
    "f19a704f933122bfd1e4029d5e506b4b76f7d86f7a0736ece456d7b4b21dce1b", // dq
    "9f4442fdb15c8d718ff7534330ca7ccb18a77bef15bc322734139da4e110e33b", // qi
    // RFC 7520, Section 5.4.1: the EC P-384 key (kid "peregrin.took@tuckborough.example").
    "44e6c89ad9f1cbaf6aeb4062c5f2838879206dfe03f2b4ecf61db9cedd27a86e", // d
    // RFC 7520, Section 5.5.1: the EC P-256 key (kid "meriadoc.brandybuck@buckland.example").
    "79bd8cb5ce94f16b65a975159d6546a3e46ce0aff662cfba61a8f65c61c92b29", // d
    // RFC 7520, Section 5.6.1: the AES key (kid "77c7e2b8-…").
    "8580dd90707d8c5158d6cb777938febb4f6f4567809b698aa4b293826709aa46", // k
    // RFC 7520, Section 5.7.1: the AES key (kid "18ec08e1-…").
    "fde65288758ade656d00d03a11dee9d4df0835b5950fdea8e1186c2fe1dd8fa7", // k
    // RFC 7520, Section 5.8.1: the AES key (kid "81b20965-…").
    "c10838189a432c839e70d3cbe43c097c51ceb86c787caa91daea524faef8485e", // k
    // RFC 7518, Appendix C: Bob's EC P-256 key (the ECDH-ES example). Value
    // as joserfc 1.8.0 copies it (sdist, tests/keys/ec-p256-bob.json, which
    // names no RFC: matched to the appendix's key by its x, y and d). Alice's
    // ephemeral key there has no copy in a package here: not listed.
    "6cebd764dd9840fcce68a04d6a5b3e04e9747dcd4e0fb76772a6f18fb56bcc8a", // d
];

/// Whether `value`, a private JWK member's base64url value, is one the
/// RFCs published as an example.
pub(super) fn is_published_example(value: &str) -> bool {
    let digest = Sha256::digest(value.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    PUBLISHED.contains(&hex.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8037, Appendix A.1: the Ed25519 key's `d`, as printed there.
    const ED25519_D: &str = "nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A";

    #[test]
    fn the_published_examples_are_known_and_nothing_else() {
        assert!(is_published_example(ED25519_D));
        // One character off is someone's key.
        assert!(!is_published_example(&ED25519_D.replace('n', "m")));
        assert!(PUBLISHED.iter().all(|d| d.len() == 64));
        let mut sorted = PUBLISHED.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), PUBLISHED.len(), "a digest listed twice");
    }
}
