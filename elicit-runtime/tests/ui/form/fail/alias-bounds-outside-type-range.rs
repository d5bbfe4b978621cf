use elicit_runtime::ElicitForm;

type Small = u8;

#[derive(ElicitForm)]
#[elicit(message = "Alias bounds")]
struct AliasBounds {
    #[elicit(minimum = -5, maximum = 1000)]
    small: Small,
}

fn main() {}
