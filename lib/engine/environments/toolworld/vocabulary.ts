/** Word lists the world generator draws from. Disjoint on purpose: annotation relies on it. */

export const FIRST_NAMES = [
  "Maya",
  "Leo",
  "Ana",
  "Omar",
  "Sofia",
  "Ivan",
  "Nora",
  "Hugo",
  "Lena",
  "Ravi",
  "Iris",
  "Tomas",
  "Yara",
  "Felix",
  "Mina",
  "Jonas",
  "Clara",
  "Idris",
  "Elsa",
  "Kenji",
  "Aya",
  "Bruno",
  "Lucia",
  "Marek",
  "Zoe",
  "Pavel",
  "Nadia",
  "Oscar",
  "Ines",
  "Theo",
  "Greta",
  "Samir",
] as const;

export const LAST_NAMES = [
  "Chen",
  "Park",
  "Silva",
  "Haddad",
  "Novak",
  "Berg",
  "Costa",
  "Moreau",
  "Kaur",
  "Tanaka",
  "Ortiz",
  "Weber",
  "Rossi",
  "Dubois",
  "Ivanova",
  "Okafor",
  "Lindqvist",
  "Murphy",
  "Sato",
  "Brennan",
  "Kowalski",
  "Ferreira",
  "Nakamura",
  "Jansen",
] as const;

export const CITIES = [
  "Lisbon",
  "Oslo",
  "Kyoto",
  "Austin",
  "Nairobi",
  "Porto",
  "Denver",
  "Lyon",
  "Seoul",
  "Quito",
] as const;

export const COMPANIES = [
  "Acme",
  "Globex",
  "Initech",
  "Umbrella",
  "Hooli",
  "Vandelay",
  "Stark",
  "Wonka",
] as const;

export const FOLDERS = [
  "Downloads",
  "Documents",
  "Desktop",
  "Photos",
  "Archive",
  "Work",
  "Projects",
  "Backup",
] as const;

export const EXTENSIONS = ["pdf", "docx", "xlsx", "jpg", "png", "txt", "csv"] as const;

export const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
] as const;

export const FILE_STEMS = [
  "invoice",
  "report",
  "notes",
  "budget",
  "slides",
  "contract",
  "receipt",
  "photo",
  "scan",
  "draft",
  "summary",
  "itinerary",
  "plan",
  "roster",
  "memo",
] as const;

export const EVENT_TITLES = [
  "Dentist",
  "Team sync",
  "Lunch",
  "Yoga",
  "Budget review",
  "Coffee chat",
  "Standup",
  "Interview",
  "Piano lesson",
  "Design review",
  "Book club",
  "Haircut",
] as const;

export const MEMOS = [
  "dinner",
  "taxi",
  "concert tickets",
  "groceries",
  "rent",
  "birthday gift",
  "train tickets",
  "hotel",
  "books",
  "museum passes",
] as const;

export const MESSAGES = [
  "Running ten minutes late",
  "Call me when you land",
  "The keys are under the mat",
  "Happy birthday",
  "Meeting moved to Friday",
  "Thanks for dinner",
  "Please review the draft",
  "See you at the station",
  "Lunch is on me",
  "Can we talk tomorrow",
] as const;

export const CONTACT_FIELDS = ["phone", "email", "city", "company"] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
