// The admin console's formats screen (not built yet).
import { AdminPlaceholder } from '../../AdminPlaceholder';

export default function Formats() {
  return <AdminPlaceholder screen="formats" />;
}
