"""A throwaway certificate authority for loopback TLS tests (made with `cryptography`)."""

import datetime
import ipaddress
import ssl
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _pem(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


@dataclass(frozen=True)
class Issued:
    cert_pem: bytes
    key_pem: bytes


class Authority:
    """A CA that issues server certificates for the names and addresses a test asks for."""

    def __init__(self, common_name: str = "Loupe test CA") -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        public = self.key.public_key()
        self.cert = (
            x509.CertificateBuilder()
            .subject_name(_name(common_name))
            .issuer_name(_name(common_name))
            .public_key(public)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=True,
                    crl_sign=True,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
            .sign(self.key, hashes.SHA256())
        )

    @property
    def cert_pem(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.PEM)

    def issue(self, dns_names: tuple[str, ...] = (), ips: tuple[str, ...] = ()) -> Issued:
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        alt_names: list[x509.GeneralName] = [x509.DNSName(name) for name in dns_names]
        alt_names += [x509.IPAddress(ipaddress.ip_address(ip)) for ip in ips]
        cert = (
            x509.CertificateBuilder()
            .subject_name(_name((dns_names or ips)[0]))
            .issuer_name(self.cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self.key.public_key()),
                critical=False,
            )
            .sign(self.key, hashes.SHA256())
        )
        return Issued(cert.public_bytes(serialization.Encoding.PEM), _pem(key))

    def client_context(self) -> ssl.SSLContext:
        """A client context trusting this CA only, with host names checked."""
        return ssl.create_default_context(cadata=self.cert_pem.decode())


def server_context(issued: Issued, server_names: list[str | None]) -> ssl.SSLContext:
    """A server context for `issued` that appends each client's SNI name to `server_names`."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    # load_cert_chain reads files only.
    with tempfile.TemporaryDirectory() as directory:
        cert, key = Path(directory, "cert.pem"), Path(directory, "key.pem")
        cert.write_bytes(issued.cert_pem)
        key.write_bytes(issued.key_pem)
        context.load_cert_chain(cert, key)

    def remember(_socket: ssl.SSLObject, name: str | None, _context: ssl.SSLContext) -> None:
        server_names.append(name)

    context.sni_callback = remember  # type: ignore[assignment]
    return context
