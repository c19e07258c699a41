//! What a viewer of a request is in a game: the credential it acts with (a seat token before
//! its account) and who sits down when it takes a seat.

use crate::accounts::viewer::Viewer;
use crate::games::model::{Credential, Holder, Seated};

/// A request's viewer as the games see it.
pub trait Seats {
    /// The account as a credential.
    fn credential(&self) -> Option<Credential<'_>>;

    /// Who sits down when this viewer takes a seat: their account, or a guest named `name`.
    fn seated(&self, name: Option<&str>) -> Seated;

    /// The credential a request acts with: the seat token of `headers` if it has one, else the
    /// session's account.
    fn acting<'a>(&'a self, token: Option<&'a str>) -> Option<Credential<'a>>;

    /// The owned form of [`Seats::acting`], for a connection to keep.
    fn holder(&self, token: Option<&str>) -> Option<Holder>;
}

impl Seats for Viewer {
    fn credential(&self) -> Option<Credential<'_>> {
        self.account.as_ref().map(|a| Credential::Account(&a.id))
    }

    fn seated(&self, name: Option<&str>) -> Seated {
        match &self.account {
            Some(a) => Seated {
                name: a.name.clone(),
                account: Some(a.id.clone()),
            },
            None => Seated::guest(name.unwrap_or("")),
        }
    }

    fn acting<'a>(&'a self, token: Option<&'a str>) -> Option<Credential<'a>> {
        token.map(Credential::Token).or_else(|| self.credential())
    }

    fn holder(&self, token: Option<&str>) -> Option<Holder> {
        match token {
            Some(t) => Some(Holder::Token(t.to_string())),
            None => self.account.as_ref().map(|a| Holder::Account(a.id.clone())),
        }
    }
}
