//! TLS to an `https://` upstream: the certificates the proxy trusts (the system's store, and a
//! CA file given with `--upstream-ca`, as for a private CA or a test server) and the client
//! configuration built from them (rustls on ring; TLS 1.2 and 1.3). The proxy itself listens on
//! plain http.

use std::path::Path;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::{ClientConfig, RootCertStore};

/// The client configuration for the upstream: for an https one (`tls`), the system's trusted
/// certificates and those of `ca_file`; for an http one, none (it never makes a TLS connection).
/// An error says what was missing or unreadable, in words.
pub fn client_config(tls: bool, ca_file: Option<&Path>) -> Result<ClientConfig, String> {
    let mut roots = RootCertStore::empty();
    if tls {
        add_trusted(&mut roots, ca_file)?;
    }
    let config = ClientConfig::builder_with_provider(crypto_provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS cannot be set up: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(config)
}

/// rustls on *ring*. rustls 0.23.48 marks ring's provider deprecated for its lack of
/// post-quantum key exchange; the other provider (aws-lc-rs) needs CMake and a large C build,
/// and classical key exchange (X25519, ECDHE) is what an inference server's TLS offers today.
#[allow(deprecated)]
pub fn crypto_provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Adds the system's trusted certificates and those of `ca_file` to `roots`.
fn add_trusted(roots: &mut RootCertStore, ca_file: Option<&Path>) -> Result<(), String> {
    let system = rustls_native_certs::load_native_certs();
    let (added, _ignored) = roots.add_parsable_certificates(system.certs);
    if let Some(path) = ca_file {
        let certs = CertificateDer::pem_file_iter(path)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| format!("{}: the CA file cannot be read as PEM certificates: {e}", path.display()))?;
        if certs.is_empty() {
            return Err(format!("{}: the CA file holds no certificate (-----BEGIN CERTIFICATE-----)", path.display()));
        }
        for cert in certs {
            roots.add(cert).map_err(|e| format!("{}: a certificate there is not usable: {e}", path.display()))?;
        }
    } else if added == 0 {
        let why = system.errors.first().map_or(String::new(), |e| format!(" ({e})"));
        return Err(format!(
            "no trusted certificates were found in the system's store{why}: install the system's CA \
             certificates (Debian: ca-certificates) or give the upstream's CA with --upstream-ca FILE"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_or_empty_ca_file_is_said_in_words() {
        let dir = std::env::temp_dir().join(format!("coherency-proxy-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = client_config(true, Some(&dir.join("nope.pem"))).unwrap_err();
        assert!(missing.contains("nope.pem: the CA file cannot be read"), "{missing}");
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let none = client_config(true, Some(&empty)).unwrap_err();
        assert!(none.contains("holds no certificate"), "{none}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
