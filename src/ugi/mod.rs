//! The UGI protocol.
