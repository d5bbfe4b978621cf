use elicit_runtime::ElicitForm;

type Ratio = f32;

#[derive(ElicitForm)]
#[elicit(message = "Alias float bounds")]
struct AliasFloat {
    #[elicit(maximum = 1e39)]
    limit: Option<Ratio>,
    #[elicit(default = 1e39)]
    fallback: Ratio,
}

fn main() {}
