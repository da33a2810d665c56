package samples

// Names for people in the generated tables.
var (
	firstNames = []string{"Ana", "Ben", "Chen", "Dana", "Emil", "Fatima", "Greta", "Hiro", "Ines", "Jonas",
		"Kai", "Lena", "Mateo", "Nora", "Omar", "Priya", "Quinn", "Rosa", "Sven", "Tara"}
	lastNames = []string{"Jones", "Smith", "Garcia", "Müller", "Kowalski", "Nguyen", "Okafor", "Rossi",
		"Silva", "Tanaka", "Weber", "Yilmaz", "Novak", "Berg", "Costa", "Dubois"}
)
