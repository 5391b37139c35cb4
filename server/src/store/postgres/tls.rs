//! How to reach a Postgres: its URL's settings and the TLS they ask for. Without `sslmode` (or
//! with `sslmode=disable`) the connection is plain, for a database on the same host or a
//! private network; `sslmode=prefer` and `sslmode=require` encrypt with rustls and verify the
//! server's certificate against the usual public roots and, when the URL names one,
//! `sslrootcert=FILE` (the authority of a self-hosted Postgres, in PEM). A certificate that does
//! not verify is refused, never trusted silently.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::store::StoreError;

/// A Postgres to connect to: its settings and its TLS connector.
#[derive(Clone)]
pub struct Target {
    settings: tokio_postgres::Config,
    tls: MakeRustlsConnect,
}

impl std::fmt::Debug for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Target")
            .field("hosts", &self.settings.get_hosts())
            .field("ssl_mode", &self.settings.get_ssl_mode())
            .finish_non_exhaustive()
    }
}

impl Target {
    /// The target a `postgres://` URL names, with a connect timeout and the application name
    /// when the URL gives none.
    pub fn parse(url: &str) -> Result<Target, StoreError> {
        let (url, root_file) = take_param(url, "sslrootcert");
        let mut settings = tokio_postgres::Config::from_str(&url)
            .map_err(|err| StoreError::Location(format!("the Postgres URL is not valid: {err}")))?;
        if !has_param(&url, "sslmode") {
            settings.ssl_mode(SslMode::Disable);
        }
        if settings.get_connect_timeout().is_none() {
            settings.connect_timeout(Duration::from_secs(5));
        }
        if settings.get_application_name().is_none() {
            settings.application_name("parlor");
        }
        let tls = connector(root_file.as_deref())?;
        Ok(Target { settings, tls })
    }

    /// The settings (host, user, database, TLS mode).
    #[must_use]
    pub fn settings(&self) -> &tokio_postgres::Config {
        &self.settings
    }

    /// Opens a connection: the client, and the connection's driver for the caller to run.
    pub async fn connect(
        &self,
    ) -> Result<
        (
            tokio_postgres::Client,
            impl Future<Output = Result<(), tokio_postgres::Error>> + Send + 'static,
        ),
        tokio_postgres::Error,
    > {
        self.settings.connect(self.tls.clone()).await
    }
}

/// A rustls connector trusting the public roots and the authority in `root_file`, if any.
fn connector(root_file: Option<&str>) -> Result<MakeRustlsConnect, StoreError> {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(file) = root_file {
        let refused = |err: &dyn std::fmt::Display| {
            StoreError::Location(format!("sslrootcert {file} cannot be read: {err}"))
        };
        let mut added = 0;
        for cert in CertificateDer::pem_file_iter(file).map_err(|err| refused(&err))? {
            roots
                .add(cert.map_err(|err| refused(&err))?)
                .map_err(|err| refused(&err))?;
            added += 1;
        }
        if added == 0 {
            return Err(refused(&"it holds no PEM certificate"));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|err| StoreError::Location(format!("TLS cannot be set up: {err}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(MakeRustlsConnect::new(config))
}

/// Whether the URL's query names `name`.
fn has_param(url: &str, name: &str) -> bool {
    url.split_once('?').is_some_and(|(_, query)| {
        query
            .split('&')
            .any(|part| part.split('=').next() == Some(name))
    })
}

/// The URL without its query parameter `name`, and that parameter's value.
fn take_param(url: &str, name: &str) -> (String, Option<String>) {
    let Some((base, query)) = url.split_once('?') else {
        return (url.to_string(), None);
    };
    let mut value = None;
    let kept: Vec<&str> = query
        .split('&')
        .filter(|part| match part.split_once('=') {
            Some((key, v)) if key == name => {
                value = Some(v.to_string());
                false
            }
            _ => true,
        })
        .collect();
    let url = if kept.is_empty() {
        base.to_string()
    } else {
        format!("{base}?{}", kept.join("&"))
    };
    (url, value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_without_sslmode_connects_in_plain_text_and_with_it_as_asked() {
        let plain = Target::parse("postgres://ann@db:5432/parlor").unwrap();
        assert_eq!(plain.settings().get_ssl_mode(), SslMode::Disable);
        let tls = Target::parse("postgres://ann@db:5432/parlor?sslmode=require").unwrap();
        assert_eq!(tls.settings().get_ssl_mode(), SslMode::Require);
    }

    #[test]
    fn sslrootcert_is_taken_out_of_the_url_and_must_be_readable() {
        assert_eq!(
            take_param(
                "postgres://a@h/d?sslmode=require&sslrootcert=/x/ca.pem",
                "sslrootcert"
            ),
            (
                "postgres://a@h/d?sslmode=require".to_string(),
                Some("/x/ca.pem".to_string())
            )
        );
        assert_eq!(
            take_param("postgres://a@h/d?sslrootcert=/x", "sslrootcert").0,
            "postgres://a@h/d"
        );
        let err = Target::parse("postgres://a@h/d?sslmode=require&sslrootcert=/nowhere/ca.pem")
            .unwrap_err();
        assert!(err.to_string().contains("/nowhere/ca.pem"), "{err}");
    }
}
