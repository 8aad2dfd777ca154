import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './admin.css'
import { AdminApp } from './app'

// Rendered in the browser only: the admin page is behind a token, there is nothing to prerender.
const root = document.getElementById('admin')
if (!root) throw new Error('admin.html has no #admin element')
createRoot(root).render(
  <StrictMode>
    <AdminApp />
  </StrictMode>,
)
