//! Round eleven (sweep 10, F3): what real code names that is no secret:
//! identifiers, option names, `file://` references, role and resource
//! paths, timestamps, colour names, and documentation's `EXAMPLE` values.
//! A value that is its own name spelled another way is a field's name.

use super::found;

#[test]
fn round_eleven_false_alarms_are_not_flagged() {
    let lines = [
        // IPython's prompt colours.
        "    Token.Prompt: '#ansibrightblue',",
        "    Token.PromptNum: '#ansibrightgreen bold',",
        "    Token.OutPrompt: '#ansired',",
        // An option followed by an option (Debconf's dialog frontend).
        "        $_[0]='--password --inputbox';",
        // A file reference (awscli's examples).
        "    aws acm export-certificate --certificate-arn arn --passphrase file://path-to-passphrase-file",
        "    aws acm export-certificate --passphrase fileb://passphrase.txt",
        // A flag and its help text.
        "  --prompt-for-password  Prompt for the password",
        // A constant naming an API field, a resource path, a role.
        "    ('OAUTH2_CLIENT_SECRET', 'oauth2ClientSecret'),",
        "SECRETS_ANNOTATION = 'run.googleapis.com/secrets'",
        "ROLE_IAM_SERVICE_ACCOUNT_TOKEN_CREATOR = 'roles/iam.serviceAccountTokenCreator'",
        // Timestamps.
        "    PasswordLastUsed = 2014-10-10T15:49:17Z",
        "        \"PasswordLastUsed\": \"2014-10-10T15:49:17Z\",",
        "password_changed_at: 2021-03-04T05:06:07+00:00",
        // A paginator's names.
        "    output_token = NextToken",
        // AWS documentation's example values, marked `EXAMPLE`.
        "            \"SecretCode\": \"QWERTYUIOP123456EXAMPLE\"",
        "    \"SecurityToken\": \"je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY\"",
        "    \"ClientToken\": \"0cbc5ae7-4921-4204-bea9-EXAMPLE11111\",",
        // Placeholders in capitals.
        "//registry.npmjs.org/:_authToken=MYTOKEN",
    ];
    assert_quiet(&lines);
}

/// The same names with values that are secrets are still found.
#[test]
fn round_eleven_false_alarm_fixes_keep_the_secrets() {
    let value = "Xk9vQ2mLr7TzWq4N";
    for text in [
        format!("    Token.Prompt: '{value}',"),
        format!("  mysql --password {value} --batch"),
        format!("    ('OAUTH2_CLIENT_SECRET', '{value}'),"),
        format!("SECRETS_ANNOTATION = '{value}'"),
        format!("    PasswordLastUsed = {value}"),
    ] {
        assert_eq!(found(&text).len(), 1, "{text:?}: {:?}", found(&text));
    }
}

/// Round twelve (recheck of sweep 10, F3): awscli's examples. An
/// expression that selects a key, lock and paging tokens, idempotency
/// tokens and request ids (UUIDs, short ids), values marked `example`,
/// made-up values that count up, key bodies cut short with `...`.
#[test]
fn round_twelve_aws_examples_are_not_flagged() {
    let lines = [
        "                \"ApiKeySelectionExpression\": \"$request.header.x-api-key\",",
        "                \"LockToken\":\"1eb5ec48-0000-0000-0000-ee9b906c541e\",",
        "        \"NextLockToken\": \"0674f51c-12eb-4b4e-9b0d-c8ab7b3b2294\",",
        "      \"nextForwardToken\": \"f/31961209122447488583055879464742346735121166569214640130\",",
        "         \"ClientToken\": \"5236cffc-ee13-4a32-bb5b-388d9da09d96\"",
        "                         \"ClientToken\": \"1234abcd-1234-abcd-1234-d46a8903e9bc\",",
        "          \"ClientToken\": \"cachedvol112233\",",
        "             \"RequestToken\": \"e1a6b86e-46bd-41ac-bfba-633abcdfdbd7\",",
        "         \"ClientToken\": \"so0eNA2uSHUNlHI0S2cJ305GuIX1CezaRdGtexample\",",
        "         \"RegistrationToken\": \"f5525280-104e-4d35-bef5-8f1f1example\"",
        "      \"authKey\": \"asdf34example\", ",
        "        \"authKey\": \"0xC_ukbCerl6EYA0example\", ",
        "  <bgp_auth_key>asdf34example</bgp_auth_key>",
        "  aws directconnect allocate-private-virtual-interface --new-private-virtual-interface-allocation virtualInterfaceName=PrivateVirtualInterface,vlan=1000,asn=65000,authKey=asdf34example,amazonAddress=192.168.1.1/30",
        "             \"client_secret\": \"idpexamplesecret456\",",
        "                     \"passphrase\": \"AB1C2defGHijkLMNo3PqQRstUvwxyzaBCDEfghh4ijklMN5opqrStuVWxyzAbCDEfghIJ\"",
        "             \"token\": \"abcd1234defg5678\"",
        "         --sidewalk AmazonId=\"12345678901234\",AppServerPrivateKey=\"a123b45c6d78e9f012a34cd5e6a7890b12c3d45e6f78a1b234c56d7e890a1234\"",
        "    aws redshift modify-cluster --cluster-identifier mycluster --master-user-password A1b2c3d4",
        "         --password smb-file-server-password",
        "         \"PrivateKeyPlaintext\": \"MIIG/QIBADANBgkqhkiG9w0BAQEFAASCBucwggbjAgEAAoIBgQDcDd4YzI+u9Kfv4t2UkTWhShBXkekS4cBVt07I0P42ZgMf+YvU5IgS4ut...\",",
    ];
    assert_quiet(&lines);
}

/// The same names with random values are still found: a lock token's name
/// aside, they name secrets when the value is one.
#[test]
fn round_twelve_aws_fixes_keep_the_secrets() {
    let value = "Xk9vQ2mLr7TzWq4NpB3s";
    for text in [
        format!("    \"ClientToken\": \"{value}\","),
        format!("    \"RequestToken\": \"{value}\","),
        format!("    \"authKey\": \"{value}\","),
        format!("    \"ApiKeySelection\": \"{value}\","),
        format!("    \"passphrase\": \"{value}\""),
        format!("  --master-user-password {value}"),
    ] {
        assert_eq!(found(&text).len(), 1, "{text:?}: {:?}", found(&text));
    }
}

/// Fails naming every line of `lines` the scanner finds anything on.
fn assert_quiet(lines: &[&str]) {
    let wrong: Vec<String> = lines
        .iter()
        .filter_map(|line| {
            let got = found(line);
            (!got.is_empty()).then(|| format!("{line:?}: {got:?}"))
        })
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
