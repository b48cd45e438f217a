pub mod craft;
