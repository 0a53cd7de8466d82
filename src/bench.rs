//! `ugine bench`: fixed positions searched to fixed limits (TODO filled below).
